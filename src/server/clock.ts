/**
 * Simulated time. Everything time-dependent in the server (debate pacing, long-poll waits, heartbeats,
 * rate-limit windows, the 24-hour idempotency and key-rotation windows, webhook retry waits) reads this
 * clock instead of `Date`, so `--time-scale` can speed it up and tests can drive it by hand.
 * @module
 */

/** A pending timer; `cancel` is idempotent. */
export interface ClockTimer {
  cancel(): void;
}

export interface Clock {
  /** Simulated time in epoch milliseconds. */
  now(): number;
  /** Calls `callback` once `delayMs` of simulated time has passed. */
  setTimer(delayMs: number, callback: () => void): ClockTimer;
}

/** Resolves after `delayMs` of simulated time, or at once when `signal` aborts. */
export function sleep(clock: Clock, delayMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const timer = clock.setTimer(delayMs, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    function onAbort(): void {
      timer.cancel();
      resolve();
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Real time sped up `scale` times: simulated time starts at the real time of creation and then runs
 * `scale` times faster, and a timer of `d` simulated milliseconds fires after `d / scale` real ones.
 */
export function scaledClock(scale = 1, realNow: () => number = Date.now): Clock {
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new RangeError(`time scale must be a positive number, got ${scale}`);
  }
  const origin = realNow();
  const now = (): number => Math.floor(origin + (realNow() - origin) * scale);
  return {
    now,
    setTimer(delayMs, callback) {
      const due = now() + Math.max(0, delayMs);
      let handle: NodeJS.Timeout;
      // Node's timers may fire a millisecond before `Date.now()` reaches their delay, and the scale
      // magnifies that; re-arm until the simulated clock has really reached the due time.
      const arm = (): void => {
        const left = due - now();
        if (left <= 0) {
          callback();
          return;
        }
        handle = setTimeout(arm, Math.max(1, Math.ceil(left / scale)));
        // A pending heartbeat or retry must not keep the process alive on shutdown.
        handle.unref();
      };
      handle = setTimeout(arm, Math.max(0, delayMs / scale));
      handle.unref();
      return { cancel: () => clearTimeout(handle) };
    },
  };
}

interface PendingTimer {
  due: number;
  order: number;
  callback: () => void;
}

/** A clock that moves only when told to; timers fire, in due order, as `advance` passes them. */
export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, firing every timer that falls due, each at its own due time. */
  advance(ms: number): void;
  /** Moves time to `epochMs` (never backwards). */
  set(epochMs: number): void;
  /** How many timers are pending. */
  pending(): number;
}

export function manualClock(startMs = Date.UTC(2026, 9, 1, 9, 0, 0)): ManualClock {
  let current = startMs;
  let sequence = 0;
  const timers = new Set<PendingTimer>();

  function nextDue(limit: number): PendingTimer | undefined {
    let next: PendingTimer | undefined;
    for (const timer of timers) {
      if (timer.due <= limit && (next === undefined || timer.due < next.due || (timer.due === next.due && timer.order < next.order))) {
        next = timer;
      }
    }
    return next;
  }

  function runUntil(target: number): void {
    // A callback may schedule further timers; those that fall due before the target fire too.
    for (let timer = nextDue(target); timer !== undefined; timer = nextDue(target)) {
      timers.delete(timer);
      current = Math.max(current, timer.due);
      timer.callback();
    }
    current = Math.max(current, target);
  }

  return {
    now: () => current,
    setTimer(delayMs, callback) {
      const timer = { due: current + Math.max(0, delayMs), order: sequence++, callback };
      timers.add(timer);
      return { cancel: () => timers.delete(timer) };
    },
    advance: (ms) => runUntil(current + ms),
    set: (epochMs) => runUntil(epochMs),
    pending: () => timers.size,
  };
}

/** ISO 8601 UTC with milliseconds, the timestamp form of the contract. */
export function isoAt(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
