/**
 * The API's rate-limit windows, counted in the server's memory. Every request is counted, so writing
 * each count to SQLite cost one write per read request, about a tenth of a `GET /v1/sessions/{id}`
 * (docs/benchmarks.md). The seed asks for per-minute quotas ("Limits"), not for counts that outlive the
 * process: a restart forgets the window in progress, so a client may spend at most one more quota in
 * the minute the server restarts in (docs/decisions.md). Servers sharing one store count apart.
 *
 * The windows are fixed and aligned on the clock (`windowStart` is a multiple of the window), so all
 * subjects change window together: the counts of a window are dropped as a whole when the next begins,
 * and memory holds at most one count per subject and bucket seen in the current minute.
 * @module
 */
import type { WindowCount } from '../ports/records.js';

/** Counts requests per subject and bucket within the current window. */
export interface WindowCounter {
  /** Counts one request of `subject` in `bucket` within the window starting at `windowStart`. */
  hit(subject: string, bucket: string, windowStart: number): WindowCount;
  /** Drops every count: the data they were spent on is gone (a data reset). */
  forget(): void;
}

export function memoryWindows(): WindowCounter {
  let currentStart = Number.NEGATIVE_INFINITY;
  let counts = new Map<string, number>();
  return {
    hit(subject, bucket, windowStart) {
      // Windows are aligned on the clock, so any other start is another window: the old counts go as a whole.
      if (windowStart !== currentStart) {
        currentStart = windowStart;
        counts = new Map();
      }
      const key = `${bucket} ${subject}`;
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      return { count, windowStart };
    },
    forget() {
      counts = new Map();
    },
  };
}
