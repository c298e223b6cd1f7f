/**
 * The pending timers of a clock, kept in firing order: by simulated due time, then by the order they were
 * set, so that two timers due at the same moment fire as they were scheduled.
 * @module
 */

export interface QueuedTimer {
  due: number;
  /** Set order, unique per queue. */
  order: number;
  callback: () => void;
}

export interface TimerQueue {
  /** Queues a timer due at `due`; returns it with its order. */
  add(due: number, callback: () => void): QueuedTimer;
  /** Removes a timer; removing one that already fired or was removed does nothing. */
  remove(timer: QueuedTimer): void;
  /** The next timer to fire, if any. */
  peek(): QueuedTimer | undefined;
  /** Takes out the next timer to fire. */
  shift(): QueuedTimer | undefined;
  /** The order the next timer added will get: timers added from now on have at least this order. */
  nextOrder(): number;
  size(): number;
}

const before = (a: QueuedTimer, b: QueuedTimer): boolean => a.due < b.due || (a.due === b.due && a.order < b.order);

export function timerQueue(): TimerQueue {
  // Sorted by firing order; a binary search finds where a timer goes or is.
  const timers: QueuedTimer[] = [];
  let sequence = 0;

  /** The index of the first timer that does not fire before `timer`. */
  function indexOf(timer: QueuedTimer): number {
    let low = 0;
    let high = timers.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(timers[middle]!, timer)) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }

  return {
    add(due, callback) {
      const timer = { due, order: sequence++, callback };
      timers.splice(indexOf(timer), 0, timer);
      return timer;
    },
    remove(timer) {
      const index = indexOf(timer);
      if (timers[index] === timer) {
        timers.splice(index, 1);
      }
    },
    peek: () => timers[0],
    shift: () => timers.shift(),
    nextOrder: () => sequence,
    size: () => timers.length,
  };
}
