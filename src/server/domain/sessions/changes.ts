/**
 * In-process notification that a session changed or one of its streams grew, so that long polls and
 * open streams wake up at once instead of polling the store.
 * @module
 */
import { EventEmitter } from 'node:events';

export interface SessionChanges {
  notify(sessionId: string): void;
  /** Wakes every waiter, of whatever session: the data under all of them changed (a data reset). */
  notifyAll(): void;
  /**
   * Resolves at the next `notify` of the session, or when `signal` aborts. Take the promise before
   * reading the state it guards, so that a change between the read and the wait is not missed.
   */
  next(sessionId: string, signal: AbortSignal): Promise<void>;
}

export function sessionChanges(): SessionChanges {
  const emitter = new EventEmitter();
  // Every open stream and long poll listens; there is no fixed bound on them.
  emitter.setMaxListeners(0);
  return {
    notify: (sessionId) => void emitter.emit(sessionId),
    notifyAll() {
      for (const name of emitter.eventNames()) {
        emitter.emit(name);
      }
    },
    next(sessionId, signal) {
      return new Promise((resolve) => {
        if (signal.aborted) {
          resolve();
          return;
        }
        const done = (): void => {
          emitter.off(sessionId, done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        emitter.on(sessionId, done);
        signal.addEventListener('abort', done, { once: true });
      });
    },
  };
}
