/**
 * The store's records as they stood at one moment, kept beside it in an attached in-memory database, and
 * put back on request: the client controls' data reset brings a server back to what it started with (its
 * provisioned keys and its seed data). Every table is copied, so a table added later is covered without
 * a change here; `meta` (the cursor secret and the clock's floor) is not data and stays as it is.
 * @module
 */
import type { SqliteDatabase } from '../ports/store.js';
import { forgetReads } from './data-version.js';

export interface StoreSnapshot {
  /** Puts every table back as it was when the snapshot was taken, in one transaction. */
  restore(): void;
}

const schema = 'boardkit_snapshot';
const kept = new Set(['meta']);

const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export function snapshotStore(db: SqliteDatabase): StoreSnapshot {
  const tables = db
    .prepare<[], string>("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all()
    .filter((name) => !kept.has(name));
  // AUTOINCREMENT counters live in `sqlite_sequence`: put back too, so ids number on as after the start.
  const sequence = db.prepare("SELECT 1 FROM main.sqlite_master WHERE name = 'sqlite_sequence'").get() !== undefined;
  const copies: Array<[main: string, copy: string]> = [
    ...tables.map((name) => [`main.${quoted(name)}`, `${schema}.${quoted(name)}`] as [string, string]),
    ...(sequence ? [['main.sqlite_sequence', `${schema}.sequence`] as [string, string]] : []),
  ];
  if (db.prepare('SELECT 1 FROM pragma_database_list WHERE name = ?').get(schema) === undefined) {
    db.exec(`ATTACH DATABASE ':memory:' AS ${schema}`);
  }
  db.transaction(() => {
    for (const [main, copy] of copies) {
      db.exec(`DROP TABLE IF EXISTS ${copy}; CREATE TABLE ${copy} AS SELECT * FROM ${main}`);
    }
  })();
  return {
    restore() {
      db.transaction(() => {
        // Rows refer to each other across tables: the keys are checked once all are back, at commit.
        db.pragma('defer_foreign_keys = ON');
        for (const [main] of copies) {
          db.exec(`DELETE FROM ${main}`);
        }
        for (const [main, copy] of copies) {
          db.exec(`INSERT INTO ${main} SELECT * FROM ${copy}`);
        }
      })();
      forgetReads(db);
    },
  };
}
