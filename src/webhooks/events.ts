/**
 * The webhook event catalogue (seed "Event types and data", "Envelope"): the event names, the four
 * published event lists and the envelopes a delivery carries, the seed's and the one of the service's
 * current webhooks page (docs/webhooks.md). The values are typed with the types
 * generated from the contract, so the compiler refuses any list that drifts from it; the tests check the
 * same facts against the bundled document, `x-event-lists` of each webhook included.
 * @module
 */
import type { components } from '../generated/openapi.js';

type Schemas = components['schemas'];

export type WebhookEventName = Schemas['WebhookEventName'];

/** Every event name, in the order of the contract's `WebhookEventName` enum. */
export const webhookEventNames = [
  'session.created',
  'session.complete',
  'session.failed',
  'session.cancelled',
  'session.continued',
  'session.reconvened',
  'outcomes.ready',
  'action.executed',
  'action.undone',
  'share.created',
  'share.viewed',
  'decision.captured',
] as const satisfies readonly WebhookEventName[];

// Fails to compile when the enum gains a name the list above lacks.
const everyNameListed: Exclude<WebhookEventName, (typeof webhookEventNames)[number]> extends never ? true : never =
  true;
void everyNameListed;

/** The published event lists, by variant number (`WebhookEventListVariant1` … `4`). */
export const webhookEventLists: {
  readonly 1: Schemas['WebhookEventListVariant1'];
  readonly 2: Schemas['WebhookEventListVariant2'];
  readonly 3: Schemas['WebhookEventListVariant3'];
  readonly 4: Schemas['WebhookEventListVariant4'];
} = {
  1: [
    'session.complete',
    'session.failed',
    'session.cancelled',
    'session.continued',
    'session.reconvened',
    'outcomes.ready',
  ],
  2: ['session.complete', 'session.failed', 'session.cancelled', 'session.continued', 'outcomes.ready'],
  3: [
    'session.created',
    'session.complete',
    'session.cancelled',
    'outcomes.ready',
    'action.executed',
    'action.undone',
    'share.created',
    'share.viewed',
  ],
  4: [
    'session.created',
    'session.complete',
    'session.cancelled',
    'outcomes.ready',
    'action.executed',
    'action.undone',
    'share.created',
    'share.viewed',
    'decision.captured',
  ],
};

export type WebhookEventListVariant = keyof typeof webhookEventLists;

export const webhookEventListVariants: readonly WebhookEventListVariant[] = [1, 2, 3, 4];

/** The list variants that name an event (what the contract records as `x-event-lists` on its webhook). */
export function eventListsOf(event: WebhookEventName): WebhookEventListVariant[] {
  return webhookEventListVariants.filter((variant) =>
    (webhookEventLists[variant] as readonly WebhookEventName[]).includes(event),
  );
}

export function isWebhookEventName(value: unknown): value is WebhookEventName {
  return (webhookEventNames as readonly unknown[]).includes(value);
}

/** `session.complete` → `SessionComplete`, the stem of the event's schema names. */
type SchemaStem<Name extends string> = Name extends `${infer Head}.${infer Tail}`
  ? `${Capitalize<Head>}${SchemaStem<Tail>}`
  : Capitalize<Name>;

/** The `data` of an event, from its `WebhookEvent<Stem>Data` schema. */
export type WebhookEventData<Event extends WebhookEventName> = Schemas[`WebhookEvent${SchemaStem<Event>}Data`];

/** The body of a delivery of one event. */
export interface WebhookEnvelope<Event extends WebhookEventName = WebhookEventName> {
  event: Event;
  user_id?: string;
  correlation_id?: string;
  /** ISO 8601 in UTC with milliseconds. */
  at?: string;
  data: WebhookEventData<Event>;
}

export interface EnvelopeContext {
  userId?: string | undefined;
  correlationId?: string | undefined;
  /** When the event happened (milliseconds since the epoch, or a Date). */
  at: number | Date;
}

/**
 * The body of a delivery. Members are in the order of the seed's envelope table, which is also the
 * order the contract's test vector was serialised in.
 */
export function buildEnvelope<Event extends WebhookEventName>(
  event: Event,
  data: WebhookEventData<Event>,
  { userId, correlationId, at }: EnvelopeContext,
): WebhookEnvelope<Event> {
  return {
    event,
    ...(userId === undefined ? {} : { user_id: userId }),
    ...(correlationId === undefined ? {} : { correlation_id: correlationId }),
    // toISOString is always UTC with exactly three fraction digits, the envelope's `at` pattern.
    at: new Date(at).toISOString(),
    data,
  };
}

/**
 * The envelope forms the published descriptions disagree on: the seed's (`event, user_id, correlation_id,
 * at, data`) and the one of the service's current webhooks page (`id, type, created_at, data,
 * delivery_attempt, api_version`; its per-event samples show only `id, type, data`).
 */
export type EnvelopeForm = 'seed' | 'published';

export const envelopeForms: readonly EnvelopeForm[] = ['seed', 'published'];

/** The body of a delivery in the form of the service's current webhooks page. */
export interface PublishedWebhookEnvelope<Event extends WebhookEventName = WebhookEventName> {
  /** `evt_…`, the same on every attempt of one delivery. */
  id: string;
  type: Event;
  /** ISO 8601 in UTC with milliseconds. */
  created_at: string;
  data: WebhookEventData<Event>;
  /** 1 on the first attempt. */
  delivery_attempt: number;
  /** The date-form version the payload is rendered as. */
  api_version: string;
}

export interface PublishedEnvelopeContext {
  /** The event id (`evt_…`). */
  id: string;
  /** When the event happened (milliseconds since the epoch, or a Date). */
  at: number | Date;
  /** The attempt number, from 1. */
  attempt: number;
  apiVersion: string;
}

/** The body of a delivery in the published form, members in the order of that page's table. */
export function buildPublishedEnvelope<Event extends WebhookEventName>(
  event: Event,
  data: WebhookEventData<Event>,
  { id, at, attempt, apiVersion }: PublishedEnvelopeContext,
): PublishedWebhookEnvelope<Event> {
  return {
    id,
    type: event,
    created_at: new Date(at).toISOString(),
    data,
    delivery_attempt: attempt,
    api_version: apiVersion,
  };
}

/** A delivery body in either form. */
export type AnyWebhookEnvelope<Event extends WebhookEventName = WebhookEventName> =
  WebhookEnvelope<Event> | PublishedWebhookEnvelope<Event>;

/** The event a body is about: the seed's form names it in `event`, the published form in `type`. */
export function eventOf(envelope: AnyWebhookEnvelope): WebhookEventName {
  return 'event' in envelope ? envelope.event : envelope.type;
}

/**
 * The body of attempt `attempt` of a stored delivery. The published form counts attempts in
 * `delivery_attempt` (1 on the first), so each attempt's body carries its own number; the seed's form is
 * the same bytes on every attempt. Members keep their order.
 */
export function bodyForAttempt(body: string, attempt: number): string {
  if (!body.includes('"delivery_attempt"')) {
    return body;
  }
  const parsed = JSON.parse(body) as Record<string, unknown>;
  if (typeof parsed['type'] !== 'string' || !('delivery_attempt' in parsed) || 'event' in parsed) {
    return body;
  }
  parsed['delivery_attempt'] = attempt;
  return JSON.stringify(parsed);
}

/** Where the contract keeps the body schema of an event's webhook, for validating built envelopes. */
export function envelopeSchemaPointer(event: WebhookEventName): string {
  return `#/webhooks/${event}/post/requestBody/content/application~1json/schema`;
}
