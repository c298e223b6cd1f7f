/**
 * A small seeded pseudo-random generator, so that a session's debate is a pure function of its id and
 * inputs: the same seed yields the same numbers on every machine and Node version (Math.random cannot
 * be seeded). Strings are hashed with 32-bit FNV-1a and a murmur3 finaliser; numbers come from mulberry32.
 * Neither is cryptographic, and nothing here needs to be.
 * @module
 */

/** Hashes a string to an unsigned 32-bit integer (FNV-1a over UTF-16 code units, murmur3 fmix32). */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** `true` with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** An index drawn in proportion to non-negative weights. */
  weighted(weights: readonly number[]): number;
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
}

/** A generator seeded by the parts given, joined; `createRandom('ses_1', 2)` differs from `('ses_1', 3)`. */
export function createRandom(...seedParts: Array<string | number>): Random {
  let state = hashString(seedParts.join('\u241f'));

  // mulberry32: one 32-bit state word, period 2^32, good enough statistics for text variation.
  function next(): number {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  }

  function int(min: number, max: number): number {
    return min + Math.floor(next() * (max - min + 1));
  }

  function pick<T>(items: readonly T[]): T {
    if (items.length === 0) {
      throw new Error('pick() needs at least one item');
    }
    return items[int(0, items.length - 1)] as T;
  }

  function weighted(weights: readonly number[]): number {
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    let threshold = next() * total;
    for (let index = 0; index < weights.length; index += 1) {
      threshold -= weights[index] ?? 0;
      if (threshold < 0) {
        return index;
      }
    }
    return weights.length - 1;
  }

  function shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let index = copy.length - 1; index > 0; index -= 1) {
      const other = int(0, index);
      [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
    }
    return copy;
  }

  return { next, int, chance: (p) => next() < p, pick, weighted, shuffle };
}
