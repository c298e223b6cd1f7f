/**
 * Webhook events of the service (seed "Events"): subscriptions live in the workspace's store, their
 * URL, secret, event filter and breaker in the durable outbox of src/webhooks, whose dispatcher waits
 * between retries on the server clock and times attempts and leases, and signs, in real time. An event is queued for
 * the subscriptions of the workspace it happened in, never another's, in the same transaction as the
 * change it reports when the caller holds one. The deprecated per-key webhook URL is a target of the same
 * outbox (legacy-webhooks.ts), keyed by the API key's id.
 * @module
 */
import {
  buildEnvelope,
  buildPublishedEnvelope,
  type AnyWebhookEnvelope,
  type EnvelopeForm,
  type WebhookEventData,
  type WebhookEventName,
} from '../../webhooks/events.js';
import { createEventId } from '../../webhooks/ids.js';
import { createSqliteOutbox } from '../../webhooks/sqlite-outbox.js';
import { createWebhookDispatcher, type PostAttempt } from '../../webhooks/dispatcher.js';
import { postDelivery } from '../../webhooks/delivery-request.js';
import { realClock, realTimer } from '../../webhooks/real-time.js';
import type { Workspace } from '../ports/records.js';
import type { Clock, ClockTimer, Forwarding, WebhookEvents } from '../ports/services.js';
import type { Store } from '../ports/store.js';
import { configureForwarding, forwardTargetId } from './forward-webhooks.js';
import { randomAlphanumeric } from '../core/ids.js';

/** `corr_` and 16 alphanumerics, the shape of the contract's examples. */
export function newCorrelationId(): string {
  return `corr_${randomAlphanumeric(16)}`;
}

export interface WebhookEventOptions {
  allowPrivate: boolean;
  /** Deliver to loopback addresses, other private ones still refused (test mode). */
  allowLoopback?: boolean;
  onError: (error: unknown) => void;
  /** Sends each attempt in place of the dispatcher's own POST (the test-only fault switches). */
  post?: PostAttempt | undefined;
  /** Also deliver every event to this local URL (`--forward-webhooks`). */
  forward?: Forwarding | undefined;
  /** The wall clock signature timestamps are read from (receivers compare them with their own clock). */
  stampClock?: Clock;
  /** The envelope of a subscription that chose none; `seed` by default. */
  defaultEnvelope?: EnvelopeForm;
}

export function webhookEvents(store: Store, clock: Clock, options: WebhookEventOptions): WebhookEvents {
  const outbox = createSqliteOutbox(store.db);
  // One server owns its database, so at start every lease is stale: the deliveries a stopped server had
  // taken but not settled are due again. The receiver may have had the attempt; deliveries are
  // at-least-once, and the delivery id lets it see the repeat.
  outbox.releaseLeases();
  configureForwarding(outbox, options.forward);
  const post = options.post ?? postDelivery;
  const dispatcher = createWebhookDispatcher({
    outbox,
    clock,
    // A receiver answers an attempt within the contract's attempt timeout (`x-webhook-delivery`), and a
    // taken delivery stays taken for six of them (the dispatcher's defaults), both in real time: an
    // attempt takes real time whatever the time scale, so a lease measured on the sped-up server clock
    // would run out while the attempt is in flight and the delivery would be taken a second time. Leases
    // a stopped process left are released at start.
    leaseClock: realClock,
    leaseTimer: realTimer,
    // Wall clock, for X-Service-Timestamp: receivers check it against their own clock within 300 s
    // (seed verification rule 2), whatever --time-scale does to simulated time (docs/decisions.md).
    stampClock: options.stampClock ?? realClock,
    timer: {
      set: (callback, delayMs) => clock.setTimer(delayMs, callback),
      clear: (handle) => (handle as ClockTimer).cancel(),
    },
    allowPrivate: options.allowPrivate,
    allowLoopback: options.allowLoopback,
    onError: options.onError,
    // The forwarding URL was checked to be loopback at start; only its attempts may reach loopback.
    post: (input, claim) =>
      post(claim.target.id === forwardTargetId ? { ...input, allowLoopback: true } : input, claim),
  });
  const defaultEnvelope = options.defaultEnvelope ?? 'seed';

  /**
   * Queues one event for every subscription of the workspace that lists it and is not paused, each in the
   * envelope it chose (docs/decisions.md "Webhooks"). Both forms are built at most once per event, so every
   * published-form delivery of one event carries the same `evt_` id. The legacy per-key URL gets the
   * seed's form: its body is the seed's `session.complete` webhook.
   */
  function queue<E extends WebhookEventName>(
    workspace: Workspace,
    event: E,
    data: WebhookEventData<E>,
    correlationId: string,
    legacyTarget?: string,
  ): number {
    const at = clock.now();
    let seed: AnyWebhookEnvelope | undefined;
    let published: AnyWebhookEnvelope | undefined;
    const seedForm = (): AnyWebhookEnvelope =>
      (seed ??= buildEnvelope(event, data, { userId: workspace.userId, correlationId, at }));
    const envelopeIn = (form: EnvelopeForm): AnyWebhookEnvelope =>
      form === 'published'
        ? (published ??= buildPublishedEnvelope(event, data, {
            id: createEventId(),
            at,
            attempt: 1,
            apiVersion: workspace.apiVersion,
          }))
        : seedForm();
    if (options.forward !== undefined) {
      dispatcher.enqueue(forwardTargetId, envelopeIn(defaultEnvelope));
    }
    const legacy = legacyTarget === undefined ? undefined : dispatcher.enqueue(legacyTarget, seedForm());
    const queued = store.webhookSubscriptions
      .all(workspace.id)
      .filter(
        (subscription) =>
          dispatcher.enqueue(subscription.id, envelopeIn(subscription.record.envelope ?? defaultEnvelope)) !==
          undefined,
      );
    return queued.length + (legacy === undefined ? 0 : 1);
  }

  return {
    outbox,
    dispatcher,
    defaultEnvelope,
    emit(workspace, event, data, correlationId = newCorrelationId()) {
      return queue(workspace, event, data, correlationId);
    },
    emitSessionComplete(workspace, startedWithKeyId, data) {
      return queue(workspace, 'session.complete', data, newCorrelationId(), startedWithKeyId ?? undefined);
    },
  };
}
