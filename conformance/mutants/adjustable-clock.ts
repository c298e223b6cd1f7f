/**
 * A clock whose speed can change while it runs, and that can jump forward: what a server needs to offer
 * the test-only time control (`PUT /_test/clock`, docs/conformance.md). Simulated time continues from
 * where it is; pending timers are re-armed so each fires at its simulated due time under the new speed,
 * or at once when a jump passes it. It has the shape of the reference
 * server's clock (`now`, `setTimer`), which can be started with it.
 * @module
 */

export interface ClockTimer {
  cancel(): void;
}

export interface AdjustableClock {
  /** Jumps `ms` forward; timers that fall due meanwhile fire at once, in due order. */
  advance(ms: number): void;
  /** Simulated time, epoch milliseconds. */
  now(): number;
  /** Calls `callback` once `delayMs` of simulated time has passed. */
  setTimer(delayMs: number, callback: () => void): ClockTimer;
  scale(): number;
  setScale(scale: number): void;
}

interface Pending {
  due: number;
  callback: () => void;
  handle: NodeJS.Timeout | undefined;
}

export function adjustableClock(initialScale: number): AdjustableClock {
  let scale = initialScale;
  let simulatedBase = Date.now();
  let realBase = Date.now();
  const pending = new Set<Pending>();
  const now = (): number => Math.floor(simulatedBase + (Date.now() - realBase) * scale);

  function arm(timer: Pending): void {
    clearTimeout(timer.handle);
    timer.handle = setTimeout(() => {
      pending.delete(timer);
      timer.callback();
    }, Math.max(0, (timer.due - now()) / scale));
    timer.handle.unref();
  }

  return {
    now,
    scale: () => scale,
    advance(ms) {
      simulatedBase = now() + Math.max(0, ms);
      realBase = Date.now();
      [...pending].sort((a, b) => a.due - b.due).forEach(arm);
    },
    setScale(next) {
      if (!(next > 0) || !Number.isFinite(next)) {
        throw new RangeError(`time scale must be a positive number, got ${next}`);
      }
      simulatedBase = now();
      realBase = Date.now();
      scale = next;
      pending.forEach(arm);
    },
    setTimer(delayMs, callback): ClockTimer {
      const timer: Pending = { due: now() + Math.max(0, delayMs), callback, handle: undefined };
      pending.add(timer);
      arm(timer);
      return {
        cancel: () => {
          clearTimeout(timer.handle);
          pending.delete(timer);
        },
      };
    },
  };
}
