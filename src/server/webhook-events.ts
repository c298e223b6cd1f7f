/**
 * Webhook events of the service (seed "Events"): subscriptions live in the workspace's store, their
 * URL, secret, event filter and breaker in the durable outbox of src/webhooks, whose dispatcher delivers
 * on the server clock. An event is queued for the subscriptions of the workspace it happened in, never
 * another's, in the same transaction as the change it reports when the caller holds one.
 * @module
 */
import { buildEnvelope, type WebhookEventData, type WebhookEventName } from '../webhooks/events.js';
import { createSqliteOutbox } from '../webhooks/sqlite-outbox.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import type { Clock, ClockTimer } from './clock.js';
import { randomAlphanumeric } from './ids.js';
import type { Store } from './store/index.js';
import type { Workspace } from './store/workspaces.js';

export interface WebhookEvents {
  outbox: WebhookOutbox;
  dispatcher: WebhookDispatcher;
  /** Queues `event` for every subscription of the workspace that lists it and is not paused. */
  emit<E extends WebhookEventName>(workspace: Workspace, event: E, data: WebhookEventData<E>, correlationId?: string): number;
}

/** `corr_` and 16 alphanumerics, the shape of the contract's examples. */
export function newCorrelationId(): string {
  return `corr_${randomAlphanumeric(16)}`;
}

export interface WebhookEventOptions {
  allowPrivate: boolean;
  onError: (error: unknown) => void;
}

/** A receiver must answer an attempt within 10 seconds of real time (`x-webhook-delivery`). */
const attemptTimeoutMs = 10_000;

/**
 * How long a taken delivery stays taken, in simulated time. The attempt itself takes real time, and
 * simulated time may run a million times faster (a test sped up), so no simulated span is safely longer
 * than an attempt: the lease is as good as unbounded, and this process always settles what it took
 * (closing waits for the attempts in flight). Leases left by a process that stopped without settling
 * are released when the server starts (`releaseStaleLeases`).
 */
const leaseMs = 365 * 24 * 60 * 60 * 1000;

/**
 * Makes the deliveries a stopped server had taken but not settled due again. One server owns its
 * database, so at start every lease is stale; the receiver may have had the attempt, and deliveries are
 * at-least-once (the delivery id lets it see the repeat).
 */
function releaseStaleLeases(store: Store): void {
  store.db
    .prepare("UPDATE webhook_deliveries SET lease_until = NULL, lease_token = NULL WHERE status = 'pending' AND lease_until IS NOT NULL")
    .run();
}

export function webhookEvents(store: Store, clock: Clock, options: WebhookEventOptions): WebhookEvents {
  const outbox = createSqliteOutbox(store.db);
  releaseStaleLeases(store);
  const dispatcher = createWebhookDispatcher({
    outbox,
    clock,
    attemptTimeoutMs,
    leaseMs,
    timer: {
      set: (callback, delayMs) => clock.setTimer(delayMs, callback),
      clear: (handle) => (handle as ClockTimer).cancel(),
    },
    allowPrivate: options.allowPrivate,
    onError: options.onError,
  });
  return {
    outbox,
    dispatcher,
    emit(workspace, event, data, correlationId = newCorrelationId()) {
      const envelope = buildEnvelope(event, data, { userId: workspace.userId, correlationId, at: clock.now() });
      return store.webhookSubscriptions
        .all(workspace.id)
        .filter((subscription) => dispatcher.enqueue(subscription.id, envelope) !== undefined).length;
    },
  };
}
