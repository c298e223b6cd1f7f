/**
 * Properties of list cursors (docs/decisions.md "cursors are opaque and tamper-evident"): a cursor gives
 * back exactly the position it was made from, on its own list only; any other text, a changed, added or
 * removed character included, names no page of the list: a `404 not-found` problem, never any other
 * error.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cursorCodec, keysetAfter, offsetPage } from '../../src/server/core/pagination.js';
import { ProblemError } from '../../src/server/core/problems.js';

const codec = cursorCodec(randomBytes(32));
const listName = fc.constantFrom(
  'sessions',
  'webhooks',
  'shares:ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E',
  'decisions:x',
  'modes',
);
const keyset = fc.record({
  createdAt: fc.integer({ min: 0, max: 8_640_000_000_000_000 }),
  id: fc.string({ minLength: 1, maxLength: 40 }),
});
const position = fc.oneof(keyset, fc.nat(), fc.jsonValue());
const base64urlCharacter = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.');

/** Runs `decode` and reports what happened: the position, or the problem's status. */
function decodeOutcome(list: string, cursor: string): { position: unknown } | { status: number } {
  try {
    return { position: codec.decode(list, cursor) };
  } catch (error) {
    if (!(error instanceof ProblemError)) {
      throw error;
    }
    return { status: error.status };
  }
}

const rejected = { status: 404 };

describe('cursors', () => {
  test('decode gives back the position encoded, for any JSON position', () => {
    fc.assert(
      fc.property(listName, position, (list, at) => {
        const cursor = codec.encode(list, at);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
        // JSON cannot tell -0 from 0; a position is what survives a JSON round trip.
        expect(codec.decode(list, cursor)).toEqual(JSON.parse(JSON.stringify(at)));
      }),
    );
  });

  test('a keyset cursor gives back its keyset', () => {
    fc.assert(
      fc.property(listName, keyset, (list, at) => {
        expect(keysetAfter(codec, list, codec.encode(list, at))).toEqual(at);
      }),
    );
  });

  test('a cursor of one list is refused by every other list', () => {
    fc.assert(
      fc.property(listName, listName, position, (list, other, at) => {
        fc.pre(list !== other);
        expect(decodeOutcome(other, codec.encode(list, at))).toEqual(rejected);
      }),
    );
  });

  test('any changed character is refused', () => {
    fc.assert(
      fc.property(listName, position, fc.nat(), base64urlCharacter, (list, at, index, replacement) => {
        const cursor = codec.encode(list, at);
        const i = index % cursor.length;
        fc.pre(cursor[i] !== replacement);
        const tampered = `${cursor.slice(0, i)}${replacement}${cursor.slice(i + 1)}`;
        expect(decodeOutcome(list, tampered)).toEqual(rejected);
      }),
    );
  });

  test('every other last character of the signature is refused', () => {
    // The last base64url character of a 32-byte MAC carries 4 bits and 2 unused ones; a decoder that
    // ignores the unused bits would accept 3 other spellings of the same cursor.
    const alphabet = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];
    fc.assert(
      fc.property(listName, position, (list, at) => {
        const cursor = codec.encode(list, at);
        const spellings = alphabet
          .filter((last) => last !== cursor.at(-1))
          .map((last) => `${cursor.slice(0, -1)}${last}`);
        expect(
          spellings.map((tampered) => decodeOutcome(list, tampered)).filter((outcome) => !('status' in outcome)),
        ).toEqual([]);
      }),
      { numRuns: 20 },
    );
  });

  test('any added or removed character is refused', () => {
    fc.assert(
      fc.property(listName, position, fc.nat(), fc.string({ minLength: 1, maxLength: 1 }), (list, at, index, extra) => {
        const cursor = codec.encode(list, at);
        const i = index % (cursor.length + 1);
        expect(decodeOutcome(list, `${cursor.slice(0, i)}${extra}${cursor.slice(i)}`)).toEqual(rejected);
        const j = index % cursor.length;
        expect(decodeOutcome(list, `${cursor.slice(0, j)}${cursor.slice(j + 1)}`)).toEqual(rejected);
      }),
    );
  });

  test('a cursor signed with another secret is refused', () => {
    const other = cursorCodec(randomBytes(32));
    fc.assert(
      fc.property(listName, position, (list, at) => {
        expect(decodeOutcome(list, other.encode(list, at))).toEqual(rejected);
      }),
    );
  });

  test('any text is a position or a 404 problem, never another error', () => {
    fc.assert(
      fc.property(listName, fc.oneof(fc.string(), fc.string({ unit: base64urlCharacter })), (list, text) => {
        expect(decodeOutcome(list, text)).toEqual(rejected);
      }),
    );
  });

  test('an offset cursor pages a catalogue without gaps or repeats', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 60 }), fc.integer({ min: 1, max: 25 }), (all, limit) => {
        const seen: number[] = [];
        let cursor: string | undefined;
        do {
          const page = offsetPage(codec, 'catalogue', all, limit, cursor);
          expect(page.items.length).toBeLessThanOrEqual(limit);
          seen.push(...page.items);
          cursor = page.next_cursor ?? undefined;
        } while (cursor !== undefined);
        expect(seen).toEqual(all);
      }),
    );
  });
});
