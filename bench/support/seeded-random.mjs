/**
 * mulberry32, a small seeded generator of numbers in [0, 1), for the soak's traffic mix and the crash
 * tests' kill times and traffic: a run printed with its seed can be repeated exactly. Plain JavaScript so
 * that the bench scripts run it without compilation; its types are in seeded-random.d.mts.
 */

/** A generator that yields the same sequence for the same `seed` (taken as an unsigned 32-bit integer). */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
