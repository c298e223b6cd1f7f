/** A generator of numbers in [0, 1) that yields the same sequence for the same `seed` (mulberry32). */
export declare function seededRandom(seed: number): () => number;
