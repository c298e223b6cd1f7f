/**
 * Whether another connection to the store's file (another process) has committed: SQLite's
 * `PRAGMA data_version` changes when one has (SQLite "PRAGMA data_version"). The caches of rows every
 * request reads (keys, workspaces, sessions' answers) forget what they hold when it changes. The pragma is
 * asked at most once per millisecond of the wall clock, for all of them together: asked on every read it
 * cost a sixteenth of the fastest request (docs/benchmarks.md). So a write by another process is seen by
 * every request that starts a millisecond after its commit; a write by this server is seen at once, since
 * the store module that writes also clears its cache.
 * @module
 */
import type { SqliteDatabase } from '../ports/store.js';

const shared = new WeakMap<SqliteDatabase, () => number>();
/** Changes this server made under the store modules' feet (a snapshot put back), counted per database. */
const forgotten = new WeakMap<SqliteDatabase, number>();

/**
 * Makes every cache of `db` forget what it holds, as a commit by another process does: for writes no
 * store module made itself (src/server/store/snapshot.ts).
 */
export function forgetReads(db: SqliteDatabase): void {
  forgotten.set(db, (forgotten.get(db) ?? 0) + 1);
}

/** The data version of `db` as last asked, asked again if the wall clock has moved on since. */
export function dataVersion(db: SqliteDatabase): () => number {
  let read = shared.get(db);
  if (read === undefined) {
    const pragma = db.prepare<[], number>('PRAGMA data_version').pluck();
    let version = pragma.get() as number;
    let askedAt = Date.now();
    read = () => {
      const now = Date.now();
      if (now !== askedAt) {
        askedAt = now;
        version = pragma.get() as number;
      }
      return version + (forgotten.get(db) ?? 0);
    };
    shared.set(db, read);
  }
  return read;
}
