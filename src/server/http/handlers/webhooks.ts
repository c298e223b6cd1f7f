/**
 * Webhook subscriptions (seed "Webhook subscriptions"; `/v1/webhooks` and its unversioned alias
 * `/webhooks`): create with a signing secret returned once, list, read, change, delete, re-enable after
 * the breaker paused it, and the last 100 delivery attempts.
 * @module
 */
import { breakerFields, toAttemptResource, type TargetState } from '../../../webhooks/outbox.js';
import { createWebhookSecret } from '../../../webhooks/signing.js';
import type { EnvelopeForm } from '../../../webhooks/events.js';
import type { components } from '../../../generated/openapi.js';
import { isoAt } from '../../core/clock.js';
import type { Handler, HandlerContext } from '../../ports/handlers.js';
import type { StoredRecord, SubscriptionRecord } from '../../ports/records.js';
import { newId } from '../../core/ids.js';
import { defaultPageLimit, keysetAfter, keysetPage } from '../../core/pagination.js';
import { ProblemError, notFound } from '../../core/problems.js';
import { recordPage } from './listing.js';
import { internalError } from '../../core/internal-errors.js';

type WebhookSubscription = components['schemas']['WebhookSubscription'];

const verifyInstructions =
  'Each delivery is signed: X-Service-Signature is "sha256=" followed by the hex HMAC-SHA256 of ' +
  '"<X-Service-Timestamp>.<raw body>" keyed with this signing secret. Compare in constant time, and ' +
  'reject a timestamp more than 300 seconds from now.';

function resourceOf(
  stored: StoredRecord<SubscriptionRecord>,
  target: TargetState,
  defaultEnvelope: EnvelopeForm,
): WebhookSubscription {
  return {
    id: stored.id,
    label: stored.record.label,
    url: target.url,
    events: [...target.events],
    ...breakerFields(target),
    retry_schedule: target.schedule,
    envelope: stored.record.envelope ?? defaultEnvelope,
    created_at: stored.record.created_at,
    updated_at: stored.record.updated_at,
  };
}

/** The workspace's subscription and its outbox target; another workspace's is missing. */
function requireSubscription(context: HandlerContext, id: string) {
  const { store, webhooks } = context.services;
  const stored = store.webhookSubscriptions.get(id);
  const target = webhooks.outbox.getTarget(id);
  if (stored === undefined || stored.parentId !== context.workspace.id || target === undefined) {
    throw notFound(`Webhook subscription ${id}`);
  }
  return { stored, target };
}

/**
 * Subscriptions per workspace (`x-limits.webhook_subscriptions_per_workspace`, designed): each event is
 * queued once per subscription, so the limit bounds what one event costs the outbox.
 */
export const subscriptionsPerWorkspace = 50;

/**
 * A subscription takes any URL its schema allows (`CreateWebhookRequest`: an absolute http(s) URI). What
 * only a connection can tell is judged on every attempt (`postDelivery`), where it must be judged anyway:
 * whether the host resolves to a private, loopback or link-local address (it may change between attempts),
 * and whether the URL is one a connection can use at all (RFC 3986 allows a port above 65535, for one).
 * Such an attempt is refused before connecting and listed with the reason (docs/decisions.md › Webhooks).
 */
export const createWebhook: Handler<'createWebhook'> = ({ body }, context) => {
  const { store, webhooks, clock } = context.services;
  if (store.webhookSubscriptions.all(context.workspace.id).length >= subscriptionsPerWorkspace) {
    throw new ProblemError(
      409,
      `The workspace holds ${subscriptionsPerWorkspace} webhook subscriptions, its limit; delete one before creating another.`,
    );
  }
  const id = newId('wh');
  const secret = createWebhookSecret();
  const now = clock.now();
  store.transaction(() => {
    const envelope = body.envelope === undefined ? {} : { envelope: body.envelope };
    store.webhookSubscriptions.insert(
      id,
      context.workspace.id,
      { label: body.label, ...envelope, created_at: isoAt(now), updated_at: isoAt(now) },
      now,
    );
    webhooks.outbox.saveTarget({
      id,
      kind: 'subscription',
      url: body.url,
      secret,
      events: body.events,
      schedule: context.services.settings.retrySchedule,
      workspaceId: context.workspace.id,
    });
  });
  return {
    status: 201,
    body: {
      ok: true,
      subscription: { id, label: body.label },
      signing_secret: secret,
      verify_instructions: verifyInstructions,
    },
    headers: { Location: `/v1/webhooks/${id}` },
  };
};

export const listWebhooks: Handler<'listWebhooks'> = ({ query }, context) => {
  const { store, webhooks } = context.services;
  const page = recordPage(
    context.services,
    `webhooks:${context.workspace.id}`,
    store.webhookSubscriptions,
    context.workspace.id,
    query,
    (row) => {
      const target = webhooks.outbox.getTarget(row.id);
      if (target === undefined) {
        throw internalError('BOARDKIT_WEBHOOK_NO_OUTBOX_TARGET', row.id);
      }
      return resourceOf(row, target, webhooks.defaultEnvelope);
    },
  );
  return { status: 200, body: page };
};

export const getWebhook: Handler<'getWebhook'> = ({ path }, context) => {
  const { stored, target } = requireSubscription(context, path.id);
  return { status: 200, body: resourceOf(stored, target, context.services.webhooks.defaultEnvelope) };
};

export const updateWebhook: Handler<'updateWebhook'> = ({ path, body }, context) => {
  const { stored, target } = requireSubscription(context, path.id);
  const { store, webhooks, clock } = context.services;
  const envelope = body.envelope ?? stored.record.envelope;
  const record = {
    ...stored.record,
    label: body.label ?? stored.record.label,
    ...(envelope === undefined ? {} : { envelope }),
    updated_at: isoAt(clock.now()),
  };
  store.transaction(() => {
    store.webhookSubscriptions.update(stored.id, record);
    webhooks.outbox.saveTarget({ ...target, url: body.url ?? target.url, events: body.events ?? target.events });
  });
  const again = requireSubscription(context, path.id);
  return { status: 200, body: resourceOf(again.stored, again.target, context.services.webhooks.defaultEnvelope) };
};

export const deleteWebhook: Handler<'deleteWebhook'> = ({ path }, context) => {
  const { stored } = requireSubscription(context, path.id);
  const { store, webhooks } = context.services;
  store.transaction(() => {
    webhooks.outbox.removeTarget(stored.id);
    store.webhookSubscriptions.remove(stored.id);
  });
  return { status: 204 };
};

export const enableWebhook: Handler<'enableWebhook'> = ({ path }, context) => {
  const { stored, target } = requireSubscription(context, path.id);
  if (target.pausedAt === null) {
    throw new ProblemError(
      409,
      `Webhook subscription ${stored.id} is active; only a paused subscription can be enabled.`,
    );
  }
  const { store, webhooks, clock } = context.services;
  store.transaction(() => {
    webhooks.outbox.enable(stored.id);
    store.webhookSubscriptions.update(stored.id, { ...stored.record, updated_at: isoAt(clock.now()) });
  });
  const again = requireSubscription(context, path.id);
  return { status: 200, body: resourceOf(again.stored, again.target, context.services.webhooks.defaultEnvelope) };
};

export const listWebhookDeliveries: Handler<'listWebhookDeliveries'> = ({ path, query }, context) => {
  const { stored } = requireSubscription(context, path.id);
  const { webhooks, cursors } = context.services;
  const list = `deliveries:${stored.id}`;
  const limit = query.limit ?? defaultPageLimit;
  const after = keysetAfter(cursors, list, query.cursor);
  // The outbox keeps the last 100 attempts; the keyset runs over them, newest first.
  const attempts = webhooks.outbox
    .listAttempts(stored.id, 100)
    .map((attempt) => ({ attempt, key: { createdAt: attempt.attemptedAt, id: attempt.id } }))
    .sort((a, b) => b.key.createdAt - a.key.createdAt || (a.key.id < b.key.id ? 1 : -1))
    .filter(
      ({ key }) =>
        after === undefined ||
        key.createdAt < after.createdAt ||
        (key.createdAt === after.createdAt && key.id < after.id),
    );
  const page = keysetPage(
    cursors,
    list,
    attempts.slice(0, limit + 1),
    limit,
    (row) => row.key,
    (row) => toAttemptResource(row.attempt),
  );
  return { status: 200, body: page };
};
