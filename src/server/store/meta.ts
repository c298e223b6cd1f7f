/**
 * Store-wide settings that must survive a restart, such as the key that signs pagination cursors
 * (a cursor handed out before a restart must still be accepted after it).
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { MetaStore, SqliteDatabase } from '../ports/store.js';

export function metaStore(db: SqliteDatabase): MetaStore {
  const find = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const insert = db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)');
  const upsert = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  return {
    /** The value of `key`, created with `initial()` the first time it is asked for. */
    getOrCreate(key: string, initial: () => string): string {
      insert.run(key, initial());
      return find.get(key)?.value ?? '';
    },
    /** The simulated time a restart must not start before (clock-floor.ts); 0 when none was saved. */
    clockFloor(): number {
      return Number(find.get('clock_floor')?.value ?? 0);
    },
    saveClockFloor(epochMs: number): void {
      upsert.run('clock_floor', String(epochMs));
    },
    cursorSecret(): Buffer {
      return Buffer.from(
        this.getOrCreate('cursor_secret', () => randomBytes(32).toString('hex')),
        'hex',
      );
    },
  };
}
