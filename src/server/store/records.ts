/**
 * The shape most tables share: a resource kept as its contract-shaped JSON `record`, owned by a parent
 * (a workspace or a session), listed newest first (or oldest first) by `(created_at, id)` keyset.
 * @module
 */
import type { StoredRecord } from '../ports/records.js';
import type { RecordTable, SqliteDatabase } from '../ports/store.js';

interface RecordRow {
  id: string;
  parent: string;
  record: string;
  created_at: number;
}

export function recordTable<T>(db: SqliteDatabase, table: string, parentColumn: string): RecordTable<T> {
  const columns = `id, ${parentColumn} AS parent, record, created_at`;
  const insert = db.prepare(`INSERT INTO ${table} (id, ${parentColumn}, record, created_at) VALUES (?, ?, ?, ?)`);
  const byId = db.prepare<[string], RecordRow>(`SELECT ${columns} FROM ${table} WHERE id = ?`);
  const update = db.prepare(`UPDATE ${table} SET record = ? WHERE id = ?`);
  // Row value comparisons, so that SQLite seeks the index to the cursor's position (see sessions.ts).
  const newestFirst = db.prepare<[string, number, string, number], RecordRow>(
    `SELECT ${columns} FROM ${table} WHERE ${parentColumn} = ? AND (created_at, id) < (?, ?)
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const oldestFirst = db.prepare<[string, number, string, number], RecordRow>(
    `SELECT ${columns} FROM ${table} WHERE ${parentColumn} = ? AND (created_at, id) > (?, ?)
     ORDER BY created_at ASC, id ASC LIMIT ?`,
  );
  const all = db.prepare<[string], RecordRow>(
    `SELECT ${columns} FROM ${table} WHERE ${parentColumn} = ? ORDER BY created_at, id`,
  );
  const deleteByParent = db.prepare(`DELETE FROM ${table} WHERE ${parentColumn} = ?`);
  const remove = db.prepare(`DELETE FROM ${table} WHERE id = ?`);

  const fromRow = (row: RecordRow): StoredRecord<T> => ({
    id: row.id,
    parentId: row.parent,
    record: JSON.parse(row.record) as T,
    createdAt: row.created_at,
  });

  return {
    insert: (id, parentId, record, createdAt) => void insert.run(id, parentId, JSON.stringify(record), createdAt),
    get(id) {
      const row = byId.get(id);
      return row === undefined ? undefined : fromRow(row);
    },
    update: (id, record) => void update.run(JSON.stringify(record), id),
    list(parentId, after, limit, order = 'newest') {
      if (order === 'newest') {
        const position = after ?? { createdAt: Number.MAX_SAFE_INTEGER, id: '' };
        return newestFirst.all(parentId, position.createdAt, position.id, limit).map(fromRow);
      }
      const position = after ?? { createdAt: Number.MIN_SAFE_INTEGER, id: '' };
      return oldestFirst.all(parentId, position.createdAt, position.id, limit).map(fromRow);
    },
    all: (parentId) => all.all(parentId).map(fromRow),
    deleteByParent: (parentId) => void deleteByParent.run(parentId),
    remove: (id) => void remove.run(id),
  };
}
