/**
 * The clock and timer the dispatcher uses unless it is given others: the machine's real time. The
 * reference server gives the dispatcher its sped-up clock for retry waits, and this one for leases,
 * because an attempt takes real time whatever the scale.
 * @module
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface Timer {
  set(callback: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

export const realClock: Clock = { now: () => Date.now() };

// setTimeout holds at most a signed 32-bit delay; a longer wait re-arms on wake-up.
const longestDelayMs = 2 ** 31 - 1;

export const realTimer: Timer = {
  set(callback, delayMs) {
    const handle = setTimeout(callback, Math.min(delayMs, longestDelayMs));
    // A pending wake-up (the next retry, a lease running out) must not keep the process alive on shutdown.
    handle.unref();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
