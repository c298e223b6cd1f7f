import { describe, expect, test } from 'vitest';
import { createRandom, hashString } from '../../src/board/random.js';

function draws(count: number, ...seed: Array<string | number>): number[] {
  const random = createRandom(...seed);
  return Array.from({ length: count }, () => random.next());
}

describe('createRandom', () => {
  test('the same seed gives the same sequence; another seed another one', () => {
    expect(draws(50, 'ses_1', 2)).toEqual(draws(50, 'ses_1', 2));
    expect(draws(50, 'ses_1', 2)).not.toEqual(draws(50, 'ses_1', 3));
    expect(draws(50, 'ses_1', 2)).not.toEqual(draws(50, 'ses_12'));
    expect(hashString('abc')).toBe(hashString('abc'));
    expect(hashString('abc')).not.toBe(hashString('abd'));
  });

  test('draws floats in [0, 1) spread over the whole range', () => {
    const values = draws(10_000, 'spread');
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    const buckets = Array.from(
      { length: 10 },
      (_, bucket) => values.filter((value) => Math.floor(value * 10) === bucket).length,
    );
    // 1000 expected per bucket; a working generator stays well inside ±15%.
    expect(buckets.every((count) => count > 850 && count < 1150)).toBe(true);
  });

  test('int, pick, weighted and shuffle stay within their inputs', () => {
    const random = createRandom('bounds');
    const ints = Array.from({ length: 2000 }, () => random.int(3, 7));
    expect(new Set(ints)).toEqual(new Set([3, 4, 5, 6, 7]));
    const picked = new Set(Array.from({ length: 500 }, () => random.pick(['a', 'b', 'c'])));
    expect(picked).toEqual(new Set(['a', 'b', 'c']));
    const weighted = Array.from({ length: 1000 }, () => random.weighted([0, 1, 0, 3]));
    expect(new Set(weighted)).toEqual(new Set([1, 3]));
    expect(weighted.filter((index) => index === 3).length).toBeGreaterThan(
      weighted.filter((index) => index === 1).length,
    );
    const items = ['a', 'b', 'c', 'd', 'e', 'f'];
    const shuffled = random.shuffle(items);
    expect([...shuffled].sort()).toEqual(items);
    expect(items).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(() => random.pick([])).toThrow(/at least one/);
  });
});
