/**
 * Rows that every request reads (its API key and workspace), kept in the process. Reading them from
 * SQLite cost an eighth of a `GET /v1/sessions/{id}` (docs/benchmarks.md). The store module that owns
 * the rows clears its cache on each of its own writes, and a commit by another process clears it too
 * (src/server/store/data-version.ts). So a revocation or rotation made by this server is seen by the very
 * next request, one made by another process by every request that starts a millisecond after it.
 * @module
 */
import type { SqliteDatabase } from '../ports/store.js';
import { dataVersion } from './data-version.js';

export interface ReadCache<V> {
  /** The cached value of `key`, or `load()`'s (kept when it is not `undefined`). */
  get(key: string, load: () => V | undefined): V | undefined;
  /** Forgets every value: the owner calls it on each write to the rows. */
  clear(): void;
}

export interface ReadCacheOptions {
  /** At most this many values are kept; past it the cache starts afresh (the keys of one server are far fewer). */
  capacity?: number;
}

export function readCache<V>(db: SqliteDatabase, { capacity = 10_000 }: ReadCacheOptions = {}): ReadCache<V> {
  const version = dataVersion(db);
  let seenVersion = version();
  const values = new Map<string, V>();
  return {
    get(key, load) {
      const current = version();
      if (current !== seenVersion) {
        seenVersion = current;
        values.clear();
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
        // Frozen: every request shares the object, so no caller may change it.
        values.set(key, Object.freeze(loaded));
      }
      return loaded;
    },
    clear() {
      values.clear();
    },
  };
}
