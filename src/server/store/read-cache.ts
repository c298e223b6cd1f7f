/**
 * Rows that every request reads (its API key and workspace), kept in the process. Reading them from
 * SQLite cost an eighth of a `GET /v1/sessions/{id}` (docs/benchmarks.md). The store module that owns
 * the rows clears its cache on each of its own writes; a commit by any other connection to the same file
 * (another process) changes SQLite's `PRAGMA data_version` (SQLite "PRAGMA data_version"), and clears
 * it too. That pragma is asked at most once per millisecond of the wall clock: asked on every read it
 * cost a tenth of the fastest request. So a revocation or rotation made by this server is seen by the
 * very next request, one made by another process by every request that starts a millisecond after it.
 * @module
 */
import type { SqliteDatabase } from './database.js';

export interface ReadCache<V> {
  /** The cached value of `key`, or `load()`'s (kept when it is not `undefined`). */
  get(key: string, load: () => V | undefined): V | undefined;
  /** Forgets every value: the owner calls it on each write to the rows. */
  clear(): void;
}

export interface ReadCacheOptions {
  /** At most this many values are kept; past it the cache starts afresh (the keys of one server are far fewer). */
  capacity?: number;
  /**
   * Ask `PRAGMA data_version` on every read, not once a millisecond: for values dearer to make than the
   * pragma (a page of a list), so that another process's commit is seen by the very next read too.
   */
  checkEveryRead?: boolean;
}

export function readCache<V>(db: SqliteDatabase, { capacity = 10_000, checkEveryRead = false }: ReadCacheOptions = {}): ReadCache<V> {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  let seenVersion = dataVersion.get();
  let checkedAt = Date.now();
  const values = new Map<string, V>();
  return {
    get(key, load) {
      const now = Date.now();
      if (checkEveryRead || now !== checkedAt) {
        checkedAt = now;
        const version = dataVersion.get();
        if (version !== seenVersion) {
          seenVersion = version;
          values.clear();
        }
      }
      const cached = values.get(key);
      if (cached !== undefined) {
        return cached;
      }
      const loaded = load();
      // A row read inside a transaction may be rolled back with it.
      if (loaded !== undefined && !db.inTransaction) {
        if (values.size >= capacity) {
          values.clear();
        }
        // Frozen: every request shares the object, so no caller may change it. Bytes cannot be frozen
        // (ECMAScript refuses to freeze a typed array with elements); they are only ever sent.
        values.set(key, ArrayBuffer.isView(loaded) ? loaded : Object.freeze(loaded));
      }
      return loaded;
    },
    clear() {
      values.clear();
    },
  };
}
