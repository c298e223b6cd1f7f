/**
 * Bringing a running server's data back to what it started with (the client controls' data reset): the
 * background work stops, attempts in flight settle, the store's snapshot of the start is put back, and the
 * work the start had (runs of seeded sessions, pending outcomes, due deliveries) picks up again from it,
 * as after a restart.
 * @module
 */
import type { Services } from '../ports/services.js';
import type { StoreSnapshot } from '../store/snapshot.js';

export type DataReset = () => Promise<void>;

export function dataReset(services: Services, start: StoreSnapshot): DataReset {
  return async () => {
    const { runs, outcomes, webhooks, changes, rateLimits } = services;
    webhooks.dispatcher.stop();
    await webhooks.dispatcher.idle();
    runs.stopAll();
    outcomes.stopAll();
    start.restore();
    rateLimits.forget();
    runs.resumeAll();
    outcomes.resumeAll();
    webhooks.dispatcher.start();
    // Long polls and streams of sessions that are gone now end, or see their session as it started.
    changes.notifyAll();
  };
}
