/**
 * In-process notification that a session changed or one of its streams grew, so that long polls and
 * open streams wake up at once instead of polling the store.
 * @module
 */
import type { SessionChanges } from '../../ports/services.js';
import { EventEmitter } from 'node:events';

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
