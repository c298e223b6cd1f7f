/**
 * Simulated time. Everything time-dependent in the server (debate pacing, long-poll waits, heartbeats,
 * rate-limit windows, the 24-hour idempotency and key-rotation windows, webhook retry waits) reads this
 * clock instead of `Date`, so `--time-scale` can speed it up, the test-only time control can change its
 * speed and jump it forward, and tests can drive it by hand.
 * @module
 */
import type { Clock } from '../ports/services.js';
import { timerQueue } from './timer-queue.js';
import { internalError } from './internal-errors.js';

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

function checkScale(scale: number): number {
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw internalError('BOARDKIT_CONFIG_TIME_SCALE', scale);
  }
  return scale;
}

/**
 * Real time sped up, at a speed that can change, and that can jump forward: what `--time-scale` runs and
 * what the test-only time control (`PUT /_test/clock`, docs/conformance.md) drives.
 */
export interface ScaledClock extends Clock {
  /** How many times faster than real time simulated time runs. */
  scale(): number;
  /** Changes the speed; simulated time goes on from where it is, and pending timers keep their due time. */
  setScale(scale: number): void;
  /** Jumps `ms` forward; the timers that fall due meanwhile fire at once, in due order. */
  advance(ms: number): void;
}

export function isScaledClock(clock: Clock): clock is ScaledClock {
  return ['scale', 'setScale', 'advance'].every(
    (member) => typeof (clock as unknown as Record<string, unknown>)[member] === 'function',
  );
}

/**
 * Real time sped up `scale` times: simulated time starts at the real time of creation, or at `notBefore`
 * when that is later (a restart carries on from where a sped-up clock had got to), and then runs `scale`
 * times faster; a timer of `d` simulated milliseconds fires after `d / scale` real ones. One Node timer
 * waits for the earliest pending timer, so timers fire in due order whatever the speed does meanwhile.
 */
export function scaledClock(initialScale = 1, realNow: () => number = Date.now, notBefore = 0): ScaledClock {
  let scale = checkScale(initialScale);
  let realBase = realNow();
  let simulatedBase = Math.max(realBase, notBefore);
  const queue = timerQueue();
  let wake: NodeJS.Timeout | undefined;
  const now = (): number => Math.floor(simulatedBase + (realNow() - realBase) * scale);

  function rebase(simulated: number): void {
    simulatedBase = simulated;
    realBase = realNow();
  }

  function arm(): void {
    clearTimeout(wake);
    wake = undefined;
    const next = queue.peek();
    if (next === undefined) {
      return;
    }
    wake = setTimeout(fireDue, Math.max(0, Math.ceil((next.due - now()) / scale)));
    // A pending heartbeat or retry must not keep the process alive on shutdown.
    wake.unref();
  }

  /**
   * Fires the timers that are due, in order. Node's timers may fire a millisecond before `Date.now()`
   * reaches their delay, and the scale magnifies that, so a timer not yet due waits for the next turn;
   * so do the timers its predecessors set, which keeps a callback that re-arms itself from spinning.
   */
  function fireDue(): void {
    const reached = now();
    const lastOrder = queue.nextOrder();
    try {
      for (
        let next = queue.peek();
        next !== undefined && next.due <= reached && next.order < lastOrder;
        next = queue.peek()
      ) {
        queue.shift();
        next.callback();
      }
    } finally {
      arm();
    }
  }

  return {
    now,
    scale: () => scale,
    setScale(next) {
      checkScale(next);
      rebase(now());
      scale = next;
      arm();
    },
    advance(ms) {
      rebase(now() + Math.max(0, ms));
      arm();
    },
    setTimer(delayMs, callback) {
      const timer = queue.add(now() + Math.max(0, delayMs), callback);
      if (queue.peek() === timer) {
        arm();
      }
      return { cancel: () => queue.remove(timer) };
    },
  };
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
  const queue = timerQueue();

  function runUntil(target: number): void {
    // A callback may schedule further timers; those that fall due before the target fire too.
    for (let timer = queue.peek(); timer !== undefined && timer.due <= target; timer = queue.peek()) {
      queue.shift();
      current = Math.max(current, timer.due);
      timer.callback();
    }
    current = Math.max(current, target);
  }

  return {
    now: () => current,
    setTimer(delayMs, callback) {
      const timer = queue.add(current + Math.max(0, delayMs), callback);
      return { cancel: () => queue.remove(timer) };
    },
    advance: (ms) => runUntil(current + ms),
    set: (epochMs) => runUntil(epochMs),
    pending: () => queue.size(),
  };
}

/**
 * The wall clock: real time, whatever `--time-scale` says. What a client measures with its own clock runs
 * on it (the long-poll wait of `wait_ms`, webhook signature timestamps): docs/decisions.md "Simulated
 * time and the wall clock".
 */
export const wallClock: Clock = {
  now: () => Date.now(),
  setTimer(delayMs, callback) {
    const handle = setTimeout(callback, Math.max(0, delayMs));
    // A pending wait must not keep the process alive on shutdown.
    handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
};

/** ISO 8601 UTC with milliseconds, the timestamp form of the contract. */
export function isoAt(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
