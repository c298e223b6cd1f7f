/**
 * Walking a cursor-paginated list (seed "Endpoints": limit and cursor in, items and next_cursor out).
 * @module
 */
import { type Exchange, jsonOf } from './exchange.js';
import type { HttpClient } from './http.js';

export interface Page {
  exchange: Exchange;
  items: unknown[];
  /** `undefined` when the body has no usable `next_cursor` (neither a string nor null). */
  nextCursor: string | null | undefined;
}

export interface Walk {
  pages: Page[];
  /** Item keys in the order met. */
  keys: string[];
  /** The last page said `next_cursor: null`. */
  complete: boolean;
  /** Why the walk stopped early, if it did. */
  stopped?: string;
}

/** The identity of a list item: its `id`, else its `slug`, else the item itself. */
export function itemKey(item: unknown): string {
  const record = (item ?? {}) as { id?: unknown; slug?: unknown };
  return typeof record.id === 'string'
    ? record.id
    : typeof record.slug === 'string'
      ? record.slug
      : JSON.stringify(item);
}

export function pageOf(exchange: Exchange): Page {
  const body = jsonOf(exchange) as { items?: unknown; next_cursor?: unknown } | undefined;
  const next = body?.next_cursor;
  return {
    exchange,
    items: Array.isArray(body?.items) ? body.items : [],
    nextCursor: typeof next === 'string' || next === null ? next : undefined,
  };
}

/**
 * Follows `next_cursor` from the first page until it is null, an answer is not a page, or `maxPages`.
 * `between` runs after each page but the last (another client acting mid-walk).
 */
export async function walkList(
  client: HttpClient,
  path: string,
  limit: number,
  maxPages: number,
  between?: (pageIndex: number) => Promise<void>,
): Promise<Walk> {
  const pages: Page[] = [];
  const keys: string[] = [];
  let cursor: string | undefined;
  for (let index = 0; index < maxPages; index++) {
    const exchange = await client.get(path, { query: { limit, cursor } });
    if (exchange.response?.status !== 200) {
      return { pages, keys, complete: false, stopped: `page ${index + 1} answered ${exchange.response?.status}` };
    }
    const page = pageOf(exchange);
    pages.push(page);
    keys.push(...page.items.map(itemKey));
    if (page.nextCursor === undefined) {
      return { pages, keys, complete: false, stopped: `page ${index + 1} has no next_cursor member` };
    }
    if (page.nextCursor === null) {
      return { pages, keys, complete: true };
    }
    cursor = page.nextCursor;
    await between?.(index);
  }
  return { pages, keys, complete: false, stopped: `the list did not end within ${maxPages} pages` };
}

/** Keys met more than once. */
export function duplicatesOf(keys: readonly string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(keys.filter((key) => seen.has(key) || !seen.add(key)))];
}
