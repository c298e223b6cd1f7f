/**
 * Sessions. The row keeps the session as the contract shapes it (less the two URLs, which depend on
 * where the server is reached) and, while a run is in progress, the state the run driver needs to pick
 * it up again after a restart (`run`, `next_step_at`).
 * @module
 */
import type { components } from '../../generated/openapi.js';
import type { Keyset } from '../pagination.js';
import type { SqliteDatabase } from './database.js';
import { readCache } from './read-cache.js';

export type Session = components['schemas']['Session'];
export type Plan = components['schemas']['Plan'];
/** The members of `Session` the server always writes, though the schema leaves them optional. */
type AlwaysWritten =
  | 'context'
  | 'question'
  | 'synth_id'
  | 'model_class'
  | 'decision_brief'
  | 'estimated_cost_credits'
  | 'credits_charged'
  | 'credits_refunded'
  | 'error'
  | 'cancellation_reason'
  | 'metadata'
  | 'key_hint'
  | 'forked_from'
  | 'source_session_id'
  | 'reconvened_into'
  | 'completed_at'
  | 'archived_at';

export type StoredSession = Omit<Session, 'events_url' | 'outcomes_url' | AlwaysWritten> & Required<Pick<Session, AlwaysWritten>>;

export interface SessionRow {
  id: string;
  workspaceId: string;
  session: StoredSession;
  /** The pre-flight plan recorded at the start (`GET /v1/sessions/{id}/plan`). */
  plan: Plan;
  /** The final synthesis of the last completed run, `null` before one. */
  synthesis: string | null;
  /** The run driver's state (JSON), while a run is in progress. */
  run: unknown;
  nextStepAt: number | null;
  createdAt: number;
  /** The API key the session was started with (its legacy webhook URL hears of the end); `null` if unknown. */
  apiKeyId: string | null;
}

/** A session as a list shows it: its position, and its record as the JSON text stored (not parsed). */
export interface ListedSession {
  id: string;
  createdAt: number;
  recordJson: string;
}

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

export function sessionStore(db: SqliteDatabase) {
  const insert = db.prepare(
    'INSERT INTO sessions (id, workspace_id, record, plan, created_at, api_key_id) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const setSynthesis = db.prepare('UPDATE sessions SET synthesis = ? WHERE id = ?');
  const byId = db.prepare<[string], Row>('SELECT * FROM sessions WHERE id = ?');
  const recordById = db.prepare<[string], [string, string]>('SELECT workspace_id, record FROM sessions WHERE id = ?').raw();
  const update = db.prepare('UPDATE sessions SET record = ? WHERE id = ?');
  const setRun = db.prepare('UPDATE sessions SET run = ?, next_step_at = ? WHERE id = ?');
  // The row value comparison lets SQLite seek the index to the cursor's position, so a page deep in a
  // million sessions costs what the first page costs; `created_at < ? OR (created_at = ? AND id < ?)`
  // walked the index from the newest session to the position (SQLite "Row Values").
  // Rows as arrays (`raw`): an object per row cost better-sqlite3 the column names again for every row.
  const page = db
    .prepare<[string, number, string, number], [string, number, string]>(
      `SELECT id, created_at, record FROM sessions WHERE workspace_id = ? AND (created_at, id) < (?, ?)
       ORDER BY created_at DESC, id DESC LIMIT ?`,
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
  // Pages of the list as sent (UTF-8), cleared on every write of a record below (a list shows records
  // only) and on any commit by another process. Reading fifty records from SQLite and joining them was
  // most of a list's cost (docs/benchmarks.md, docs/decisions.md). 100 pages of 100 records: < 20 MB.
  const pages = readCache<Buffer>(db, { capacity: 100, checkEveryRead: true });
  // A page is kept when it is asked for again within the next 100 pages asked for: encoding and keeping
  // every page of a client paging through once made each of those answers a third dearer in CPU (the
  // collector's threads; docs/benchmarks.md). Which pages were asked for decides only what is kept, never
  // what is sent, so it needs no clearing on a write.
  const asked = new Set<string>();

  return {
    /** The page `key` names: as kept, or as `render` writes it now from the store. */
    page(key: string, render: () => string): string | Buffer {
      let text: string | undefined;
      const kept = pages.get(key, () => {
        text = render();
        if (asked.has(key)) {
          return Buffer.from(text);
        }
        if (asked.size >= 100) {
          asked.clear();
        }
        asked.add(key);
        return undefined;
      });
      return kept ?? (text as string);
    },
    insert(workspaceId: string, session: StoredSession, plan: Plan, createdAt: number, apiKeyId: string | null): void {
      pages.clear();
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
    /** `get`'s session as its stored JSON text, not parsed (a read sends it as it is: src/server/json-text.ts). */
    recordJson(workspaceId: string, id: string): string | undefined {
      const row = recordById.get(id);
      return row === undefined || row[0] !== workspaceId ? undefined : row[1];
    },
    getAny(id: string): SessionRow | undefined {
      const row = byId.get(id);
      return row === undefined ? undefined : fromRow(row);
    },
    update(session: StoredSession): void {
      pages.clear();
      update.run(JSON.stringify(session), session.id);
    },
    /** Records the run driver's state; a run (not `null`) comes with the due time of its next step. */
    setRun(id: string, run: unknown, nextStepAt: number | null): void {
      setRun.run(run === null ? null : JSON.stringify(run), nextStepAt, id);
    },
    list(workspaceId: string, after: Keyset | undefined, limit: number): ListedSession[] {
      const position = after ?? { createdAt: Number.MAX_SAFE_INTEGER, id: '' };
      return page
        .all(workspaceId, position.createdAt, position.id, limit)
        .map(([id, createdAt, recordJson]) => ({ id, createdAt, recordJson }));
    },
    /** Sessions whose run is in progress, for the driver to resume after a restart. */
    withRuns: (): SessionRow[] => withRuns.all().map(fromRow),
    /** Deletes a session with its messages, outcomes, decisions, share links and streams. */
    remove: (id: string): void => {
      pages.clear();
      removeWithRecords(id);
    },
  };
}

export type SessionStore = ReturnType<typeof sessionStore>;
