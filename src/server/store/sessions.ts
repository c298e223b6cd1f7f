/**
 * Sessions. The row keeps the session as the contract shapes it (less the two URLs, which depend on
 * where the server is reached) and, while a run is in progress, the state the run driver needs to pick
 * it up again after a restart (`run`, `next_step_at`).
 * @module
 */
import type { Keyset, ListedPage, Plan, SessionAnswer, SessionRow, StoredSession } from '../ports/records.js';
import type { SessionStore, SqliteDatabase } from '../ports/store.js';
import type Database from 'better-sqlite3';
import { sessionAnswer, sessionAnswers } from './session-answers.js';

interface Row {
  id: string;
  workspace_id: string;
  record: string;
  plan: string;
  synthesis: string | null;
  run: string | null;
  next_step_at: number | null;
  created_at: number;
  api_key_id: string | null;
}

const fromRow = (row: Row): SessionRow => ({
  id: row.id,
  workspaceId: row.workspace_id,
  session: JSON.parse(row.record) as StoredSession,
  plan: JSON.parse(row.plan) as Plan,
  synthesis: row.synthesis,
  run: row.run === null ? null : (JSON.parse(row.run) as unknown),
  nextStepAt: row.next_step_at,
  createdAt: row.created_at,
  apiKeyId: row.api_key_id,
});

export function sessionStore(db: SqliteDatabase, keptSessions?: number): SessionStore {
  const insert = db.prepare(
    'INSERT INTO sessions (id, workspace_id, record, plan, created_at, api_key_id) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const setSynthesis = db.prepare('UPDATE sessions SET synthesis = ? WHERE id = ?');
  const byId = db.prepare<[string], Row>('SELECT * FROM sessions WHERE id = ?');
  const recordById = db
    .prepare<[string], [string, string, number]>('SELECT workspace_id, record, created_at FROM sessions WHERE id = ?')
    .raw();
  const update = db.prepare('UPDATE sessions SET record = ? WHERE id = ?');
  const setRun = db.prepare('UPDATE sessions SET run = ?, next_step_at = ? WHERE id = ?');
  // The row value comparison lets SQLite seek the index to the cursor's position, so a page deep in a
  // million sessions costs what the first page costs; `created_at < ? OR (created_at = ? AND id < ?)`
  // walked the index from the newest session to the position (SQLite "Row Values").
  const after = 'workspace_id = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT';
  // The page's ids from the index alone, joined by SQLite into one value: better-sqlite3 costs about as
  // much per row returned as SQLite costs to find it. An aggregate over an ordered subquery reads its rows
  // in that order (the subquery is not flattened into it: SQLite "Query Flattening", restriction 16);
  // test/server/pagination.test.ts holds it to that. The limit is written into the statement, one
  // statement per limit asked for: a parameter in the subquery's LIMIT made SQLite compile the statement
  // again on every run (a bound value it may plan with expires the statement when bound).
  const pageIdStatements = new Map<number, Database.Statement<[string, number, string], string | null>>();
  const pageIds = (count: number) => {
    let statement = pageIdStatements.get(count);
    if (statement === undefined) {
      statement = db
        .prepare<[string, number, string], string | null>(
          `SELECT group_concat(id, ' ') FROM (SELECT id FROM sessions WHERE ${after} ${Math.trunc(count)})`,
        )
        .pluck();
      pageIdStatements.set(count, statement);
    }
    return statement;
  };
  const pageRows = db
    .prepare<[string, number, string, number], [string, number, string]>(
      `SELECT id, created_at, record FROM sessions WHERE ${after} ?`,
    )
    .raw();
  // A run in progress always has its next step's due time (`setRun`), so the partial index on
  // `next_step_at` finds them without reading every session at start-up.
  const withRuns = db.prepare<[], Row>('SELECT * FROM sessions WHERE next_step_at IS NOT NULL ORDER BY next_step_at');
  const removals = ['session_messages', 'outcomes', 'decisions', 'shares', 'stream_events'].map((table) =>
    db.prepare(`DELETE FROM ${table} WHERE session_id = ?`),
  );
  const remove = db.prepare('DELETE FROM sessions WHERE id = ?');
  const removeWithRecords = db.transaction((id: string) => {
    removals.forEach((statement) => statement.run(id));
    remove.run(id);
  });
  const answers = sessionAnswers(db, keptSessions);

  /** A page with a session not kept: all its records read from the store, and kept. */
  function readPage(workspaceId: string, position: Keyset, limit: number, sessionsUrl: string): ListedPage {
    const rows = pageRows.all(workspaceId, position.createdAt, position.id, limit + 1);
    const items = rows.slice(0, limit).map(([id, createdAt, recordJson]) => {
      const answer = sessionAnswer(id, workspaceId, createdAt, recordJson, sessionsUrl);
      answers.keep(answer);
      return answer;
    });
    return { items, more: rows.length > limit };
  }

  return {
    insert(workspaceId: string, session: StoredSession, plan: Plan, createdAt: number, apiKeyId: string | null): void {
      insert.run(session.id, workspaceId, JSON.stringify(session), JSON.stringify(plan), createdAt, apiKeyId);
    },
    setSynthesis(id: string, synthesis: string): void {
      setSynthesis.run(synthesis, id);
    },
    /** The session if it exists in this workspace; another workspace's session is as missing as none. */
    get(workspaceId: string, id: string): SessionRow | undefined {
      const row = byId.get(id);
      return row === undefined || row.workspace_id !== workspaceId ? undefined : fromRow(row);
    },
    /**
     * `get`'s session as `GET /v1/sessions/{id}` sends it (UTF-8), from its stored JSON text, never parsed
     * (src/server/store/session-answers.ts); `sessionsUrl` as `sessionAnswer` takes it.
     */
    answer(workspaceId: string, id: string, sessionsUrl: string): Buffer | undefined {
      answers.read(sessionsUrl);
      let answer = answers.get(id);
      if (answer === undefined) {
        const row = recordById.get(id);
        if (row === undefined) {
          return undefined;
        }
        answer = sessionAnswer(id, row[0], row[2], row[1], sessionsUrl);
        answers.keep(answer);
      }
      return answer.workspaceId === workspaceId ? answer.listed.subarray(1) : undefined;
    },
    getAny(id: string): SessionRow | undefined {
      const row = byId.get(id);
      return row === undefined ? undefined : fromRow(row);
    },
    update(session: StoredSession): void {
      answers.forget(session.id);
      update.run(JSON.stringify(session), session.id);
    },
    /** Records the run driver's state; a run (not `null`) comes with the due time of its next step. */
    setRun(id: string, run: unknown, nextStepAt: number | null): void {
      setRun.run(run === null ? null : JSON.stringify(run), nextStepAt, id);
    },
    /** The page of at most `limit` sessions after `after` (from the newest when `undefined`). */
    listPage(workspaceId: string, after: Keyset | undefined, limit: number, sessionsUrl: string): ListedPage {
      answers.read(sessionsUrl);
      const position = after ?? { createdAt: Number.MAX_SAFE_INTEGER, id: '' };
      const ids =
        pageIds(limit + 1)
          .get(workspaceId, position.createdAt, position.id)
          ?.split(' ') ?? [];
      const shown = Math.min(ids.length, limit);
      const items = new Array<SessionAnswer>(shown);
      for (let index = 0; index < shown; index += 1) {
        const answer = answers.get(ids[index] as string);
        if (answer === undefined) {
          return readPage(workspaceId, position, limit, sessionsUrl);
        }
        items[index] = answer;
      }
      return { items, more: ids.length > limit };
    },
    /** Sessions whose run is in progress, for the driver to resume after a restart. */
    withRuns: (): SessionRow[] => withRuns.all().map(fromRow),
    /** Deletes a session with its messages, outcomes, decisions, share links and streams. */
    remove: (id: string): void => {
      answers.forget(id);
      removeWithRecords(id);
    },
  };
}
