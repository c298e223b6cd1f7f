/**
 * Opens the SQLite store (better-sqlite3) and brings its schema up to date. A file database runs in
 * WAL mode so that readers never wait for the writer (SQLite "Write-Ahead Logging"); `:memory:` is
 * allowed for throwaway servers.
 * @module
 */
import type { SqliteDatabase } from '../ports/store.js';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from './migrations.js';
import { internalError } from '../core/internal-errors.js';

export function openDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true });
  }
  const db = new Database(file, { timeout: 5000 });
  if (file !== ':memory:') {
    db.pragma('journal_mode = WAL');
    // WAL with NORMAL is durable against application crashes (SQLite docs, "PRAGMA synchronous").
    db.pragma('synchronous = NORMAL');
    // Reads through a memory map of the first 1 GiB (SQLite docs, "Memory-Mapped I/O"): a page of a large
    // store is then read from the OS page cache without a system call and a copy, so a list deep in a
    // store of a million sessions costs what it does in a small one.
    db.pragma('mmap_size = 1073741824');
  }
  return prepareDatabase(db);
}

/**
 * Brings a database to the store's schema and turns on its foreign keys: for one `openDatabase` opened,
 * and for one the caller opened itself (`startServer({ db })`), which would otherwise have no tables.
 */
export function prepareDatabase(db: SqliteDatabase): SqliteDatabase {
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

function migrate(db: SqliteDatabase): void {
  const applied = Number(db.pragma('user_version', { simple: true }));
  if (applied > migrations.length) {
    throw internalError('BOARDKIT_STORE_NEWER_SCHEMA', applied, migrations.length);
  }
  for (let index = applied; index < migrations.length; index += 1) {
    db.transaction(() => {
      db.exec(migrations[index] ?? '');
      db.pragma(`user_version = ${index + 1}`);
    })();
  }
}
