/**
 * Shared parts of list operations: the page size (`limit`, default 20, at most 100) and a page of a
 * record table by keyset cursor.
 * @module
 */
import { defaultPageLimit, keysetAfter, keysetPage, type Page } from '../../core/pagination.js';
import type { StoredRecord } from '../../ports/records.js';
import type { Services } from '../../ports/services.js';
import type { RecordTable } from '../../ports/store.js';

export interface ListQuery {
  limit?: number;
  cursor?: string;
}

/** A page of a parent's records; `list` names the list in the cursor, so a cursor of another list fails. */
export function recordPage<T, Item = T>(
  services: Services,
  list: string,
  table: RecordTable<T>,
  parentId: string,
  query: ListQuery,
  toItem: (row: StoredRecord<T>) => Item = (row) => row.record as unknown as Item,
  order: 'newest' | 'oldest' = 'newest',
): Page<Item> {
  const limit = query.limit ?? defaultPageLimit;
  const after = keysetAfter(services.cursors, list, query.cursor);
  const rows = table.list(parentId, after, limit + 1, order);
  return keysetPage(
    services.cursors,
    list,
    rows,
    limit,
    (row: StoredRecord<T>) => ({ createdAt: row.createdAt, id: row.id }),
    toItem,
  );
}
