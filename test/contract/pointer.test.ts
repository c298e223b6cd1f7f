import { describe, expect, test } from 'vitest';
import { childPointer, escapeToken, pointerOf, resolve, valueAt } from '../../src/contract/pointer.js';

describe('JSON Pointer (RFC 6901)', () => {
  test('escapes ~ before / (§4: the order matters)', () => {
    expect(escapeToken('a/b~c')).toBe('a~1b~0c');
    expect(pointerOf('paths', '/v1/sessions/{id}', 'get')).toBe('#/paths/~1v1~1sessions~1{id}/get');
    expect(childPointer('#/a', 'b/c', 0)).toBe('#/a/b~1c/0');
  });

  test('reads values, including array indexes and the whole document', () => {
    const document = { paths: { '/v1/x': { tags: ['a', 'b'] } }, 'm~n': 1 };
    expect(valueAt(document, '#/paths/~1v1~1x/tags/1')).toBe('b');
    expect(valueAt(document, '#/m~0n')).toBe(1);
    expect(valueAt(document, '#')).toBe(document);
    expect(valueAt(document, '#/paths/~1v1~1y')).toBeUndefined();
    expect(() => valueAt(document, 'other.json#/a')).toThrow(/local/);
  });
});

describe('resolve', () => {
  const document = {
    a: { $ref: '#/b', description: 'why' },
    b: { $ref: '#/c' },
    c: { type: 'string' },
    loop: { $ref: '#/loop' },
    dangling: { $ref: '#/nowhere' },
  };

  test('follows a chain of references to the object and its pointer', () => {
    expect(resolve(document, '#/a')).toEqual({ node: { type: 'string' }, pointer: '#/c' });
    expect(resolve(document, '#/c')).toEqual({ node: { type: 'string' }, pointer: '#/c' });
  });

  test('rejects cycles and dangling references', () => {
    expect(() => resolve(document, '#/loop')).toThrow(/cycle/);
    expect(() => resolve(document, '#/dangling')).toThrow(/Nothing at #\/nowhere/);
  });
});
