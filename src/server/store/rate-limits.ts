/**
 * Rate-limit windows: one fixed window per subject (an API key, or a client address for the
 * unauthenticated health probe) and bucket. A fixed window lets a client spend its whole quota at
 * once, which is the bursting the seed permits ("Limits" 1).
 * @module
 */
import type { SqliteDatabase } from './database.js';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the current window began. */
  windowStart: number;
}

interface WindowRow {
  window_start: number;
  count: number;
}

export function rateLimitStore(db: SqliteDatabase) {
  const find = db.prepare<[string, string], WindowRow>(
    'SELECT window_start, count FROM rate_limit_windows WHERE subject = ? AND bucket = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO rate_limit_windows (subject, bucket, window_start, count) VALUES (?, ?, ?, ?)
     ON CONFLICT (subject, bucket) DO UPDATE SET window_start = excluded.window_start, count = excluded.count`,
  );

  const hit = db.transaction((subject: string, bucket: string, windowStart: number): WindowCount => {
    const row = find.get(subject, bucket);
    const count = row !== undefined && row.window_start === windowStart ? row.count + 1 : 1;
    upsert.run(subject, bucket, windowStart, count);
    return { count, windowStart };
  });

  return {
    /** Counts one request of `subject` in `bucket` within the window starting at `windowStart`. */
    hit: (subject: string, bucket: string, windowStart: number): WindowCount => hit.immediate(subject, bucket, windowStart),
  };
}

export type RateLimitStore = ReturnType<typeof rateLimitStore>;
