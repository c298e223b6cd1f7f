/**
 * Idempotency records (seed "Limits": a repeated Idempotency-Key within 24 hours returns the original
 * response). A record is claimed `in_flight` before the handler runs, in the same transaction that
 * checks for an existing one, then completed with the status, headers and body that were sent.
 * @module
 */
import type { Claim, StoredResponse } from '../ports/records.js';
import type { IdempotencyStore, SqliteDatabase } from '../ports/store.js';

/** Seed "Limits": idempotency window, 24 hours. */
export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

interface RecordRow {
  request_hash: string;
  state: 'in_flight' | 'complete';
  status: number | null;
  headers: string | null;
  body: string | null;
  created_at: number;
}

export function idempotencyStore(db: SqliteDatabase): IdempotencyStore {
  const find = db.prepare<[string, string], RecordRow>(
    'SELECT * FROM idempotency_records WHERE workspace_id = ? AND idempotency_key = ?',
  );
  const remove = db.prepare('DELETE FROM idempotency_records WHERE workspace_id = ? AND idempotency_key = ?');
  const insert = db.prepare(
    `INSERT INTO idempotency_records (workspace_id, idempotency_key, request_hash, state, created_at)
     VALUES (?, ?, ?, 'in_flight', ?)`,
  );
  const complete = db.prepare(
    `UPDATE idempotency_records SET state = 'complete', status = ?, headers = ?, body = ?
     WHERE workspace_id = ? AND idempotency_key = ?`,
  );
  const purge = db.prepare('DELETE FROM idempotency_records WHERE created_at <= ?');

  const claim = db.transaction((workspaceId: string, key: string, requestHash: string, now: number): Claim => {
    const row = find.get(workspaceId, key);
    if (row !== undefined && row.created_at + idempotencyWindowMs > now) {
      if (row.request_hash !== requestHash) {
        return { outcome: 'mismatch' };
      }
      if (row.state === 'in_flight' || row.status === null) {
        return { outcome: 'in_flight' };
      }
      return {
        outcome: 'replay',
        response: {
          status: row.status,
          headers: JSON.parse(row.headers ?? '{}') as Record<string, string>,
          body: row.body,
        },
      };
    }
    // A record past its window no longer counts: the key starts afresh.
    remove.run(workspaceId, key);
    insert.run(workspaceId, key, requestHash, now);
    return { outcome: 'claimed' };
  });

  return {
    claim: (workspaceId: string, key: string, requestHash: string, now: number): Claim =>
      claim.immediate(workspaceId, key, requestHash, now),
    complete(workspaceId: string, key: string, response: StoredResponse): void {
      complete.run(response.status, JSON.stringify(response.headers), response.body, workspaceId, key);
    },
    /** Drops a claim whose request failed in a way worth retrying (a server fault). */
    release(workspaceId: string, key: string): void {
      remove.run(workspaceId, key);
    },
    purgeExpired(now: number): number {
      return purge.run(now - idempotencyWindowMs).changes;
    },
  };
}
