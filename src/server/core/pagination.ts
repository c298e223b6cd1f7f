/**
 * Cursor pagination (seed "Endpoints": `limit` and `cursor` in, `next_cursor` out). A cursor is the
 * position after the last item of a page, keyed on `(created_at, id)`: a keyset, so items inserted while
 * a client pages never shift the pages it has not read yet (no duplicates, no gaps). Cursors are opaque
 * and tamper-evident: the position and the list it belongs to are signed with HMAC-SHA256. A cursor names
 * a page as an id names a resource, so one this list did not issue (altered, from another list, made up)
 * is `404 not-found`, like an unknown id: it is well-formed, and only the contract's bounds on the
 * parameter make a cursor `400 invalid-request` (docs/decisions.md › Requests and responses).
 * @module
 */
import type { Keyset } from '../ports/records.js';
import type { CursorCodec } from '../ports/services.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ProblemError } from './problems.js';

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export const defaultPageLimit = 20;

function unknownCursor(why: string): ProblemError {
  return new ProblemError(404, `The cursor names no page of this list: ${why}.`);
}

/**
 * Cursors a codec has issued or verified, with the JSON they hold: a client paging through presents the
 * cursor the server has just issued, which then needs no MAC computed again. Verifying a cursor was a
 * quarter of the cost of a list page read from memory (docs/benchmarks.md).
 */
const knownCapacity = 10_000;

export function cursorCodec(secret: Buffer): CursorCodec {
  const sign = (payload: string): Buffer => createHmac('sha256', secret).update(payload).digest();
  const known = new Map<string, string>();
  const remember = (cursor: string, json: string): string => {
    if (known.size >= knownCapacity) {
      known.clear();
    }
    known.set(cursor, json);
    return json;
  };
  /** The JSON a cursor holds, once its MAC is checked. */
  const verify = (cursor: string): string => {
    const [payload = '', signature = '', extra] = cursor.split('.');
    // Compared as text: Node's base64url decoder skips characters outside the alphabet and ignores the
    // unused bits of the last one, so several spellings would decode to the same MAC.
    const expected = Buffer.from(sign(payload).toString('base64url'));
    const given = Buffer.from(signature);
    if (extra !== undefined || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw unknownCursor('its signature does not match');
    }
    return remember(cursor, Buffer.from(payload, 'base64url').toString('utf8'));
  };
  return {
    encode(list, position) {
      const json = JSON.stringify({ l: list, p: position });
      const payload = Buffer.from(json).toString('base64url');
      const cursor = `${payload}.${sign(payload).toString('base64url')}`;
      remember(cursor, json);
      return cursor;
    },
    decode(list, cursor) {
      // Parsed on every decode, so that no caller shares, or can change, what another is given.
      const decoded = JSON.parse(known.get(cursor) ?? verify(cursor)) as { l?: unknown; p?: unknown };
      if (decoded.l !== list) {
        throw unknownCursor('another list issued it');
      }
      return decoded.p;
    },
  };
}

/** Decodes a keyset cursor, or `undefined` for the first page. */
export function keysetAfter(codec: CursorCodec, list: string, cursor: string | undefined): Keyset | undefined {
  if (cursor === undefined) {
    return undefined;
  }
  const position = codec.decode(list, cursor) as Partial<Keyset> | null;
  if (typeof position?.createdAt !== 'number' || typeof position.id !== 'string') {
    throw unknownCursor('it holds no position');
  }
  return { createdAt: position.createdAt, id: position.id };
}

/**
 * A page from rows fetched with `limit + 1`: the extra row only tells that another page exists, and the
 * cursor points after the last row returned.
 */
export function keysetPage<Row, Item>(
  codec: CursorCodec,
  list: string,
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => Keyset,
  toItem: (row: Row) => Item,
): Page<Item> {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    items: shown.map(toItem),
    next_cursor: rows.length > limit && last !== undefined ? codec.encode(list, keyOf(last)) : null,
  };
}

/** A page of a fixed list (a catalogue), positioned by offset. */
export function offsetPage<Item>(
  codec: CursorCodec,
  list: string,
  all: readonly Item[],
  limit: number,
  cursor: string | undefined,
): Page<Item> {
  let offset = 0;
  if (cursor !== undefined) {
    const position = codec.decode(list, cursor);
    if (typeof position !== 'number' || !Number.isInteger(position) || position < 0) {
      throw unknownCursor('it holds no position');
    }
    offset = position;
  }
  const items = all.slice(offset, offset + limit);
  return { items, next_cursor: offset + limit < all.length ? codec.encode(list, offset + limit) : null };
}
