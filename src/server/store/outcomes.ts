/**
 * Outcome documents (action plans, reports, memos) of sessions. Generation is asynchronous: a new
 * outcome is `pending` with the simulated time it is due to be ready, so that a restarted server
 * finishes the ones it had started.
 * @module
 */
import type { Outcome } from '../ports/records.js';
import type { OutcomeStore, SqliteDatabase } from '../ports/store.js';
import { recordTable } from './records.js';

export function outcomeStore(db: SqliteDatabase): OutcomeStore {
  const records = recordTable<Outcome>(db, 'outcomes', 'session_id');
  const setDue = db.prepare('UPDATE outcomes SET ready_due_at = ? WHERE id = ?');
  const pending = db.prepare<[], { id: string; ready_due_at: number }>(
    'SELECT id, ready_due_at FROM outcomes WHERE ready_due_at IS NOT NULL ORDER BY ready_due_at',
  );
  return {
    ...records,
    createPending(outcome: Outcome, createdAt: number, readyDueAt: number): void {
      db.transaction(() => {
        records.insert(outcome.id, outcome.session_id, outcome, createdAt);
        setDue.run(readyDueAt, outcome.id);
      })();
    },
    markReady(outcome: Outcome): void {
      db.transaction(() => {
        records.update(outcome.id, outcome);
        setDue.run(null, outcome.id);
      })();
    },
    /** Outcomes still being generated, with when each is due. */
    pending: (): Array<{ id: string; readyDueAt: number }> =>
      pending.all().map((row) => ({ id: row.id, readyDueAt: row.ready_due_at })),
  };
}
