/**
 * Rate-limit windows: one fixed window per subject (an API key, or a client address for the
 * unauthenticated health probe) and bucket. A fixed window lets a client spend its whole quota at
 * once, which is the bursting the seed permits ("Limits" 1).
 * @module
 */
import type { WindowCount } from '../ports/records.js';
import type { RateLimitStore, SqliteDatabase } from '../ports/store.js';

interface WindowRow {
  window_start: number;
  count: number;
}

export function rateLimitStore(db: SqliteDatabase): RateLimitStore {
  const find = db.prepare<[string, string], WindowRow>(
    'SELECT window_start, count FROM rate_limit_windows WHERE subject = ? AND bucket = ?',
  );
  // One statement reads and counts (an UPSERT is atomic on its own): a read request pays for one write
  // of the store, not for a transaction around a read and a write.
  const hit = db
    .prepare<[string, string, number], number>(
      `INSERT INTO rate_limit_windows (subject, bucket, window_start, count) VALUES (?, ?, ?, 1)
       ON CONFLICT (subject, bucket) DO UPDATE SET
         count = CASE WHEN window_start = excluded.window_start THEN count + 1 ELSE 1 END,
         window_start = excluded.window_start
       RETURNING count`,
    )
    .pluck();

  return {
    /** What `subject` has counted in `bucket` within the window starting at `windowStart`, counting nothing. */
    count(subject: string, bucket: string, windowStart: number): number {
      const row = find.get(subject, bucket);
      return row !== undefined && row.window_start === windowStart ? row.count : 0;
    },
    /** Counts one request of `subject` in `bucket` within the window starting at `windowStart`. */
    hit(subject: string, bucket: string, windowStart: number): WindowCount {
      return { count: hit.get(subject, bucket, windowStart) ?? 1, windowStart };
    },
  };
}
