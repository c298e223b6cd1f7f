/**
 * Realistic event bodies for the developer tools, from the contract's own examples: each webhook of the
 * contract carries an example envelope of its event (seed "Envelope", "Event types and data"), whose
 * `data` is the sample. A user's own `data` replaces it.
 * @module
 */
import { apiVersionCatalogue } from '../contract/extensions.js';
import type { OpenApiDocument } from '../contract/load.js';
import { resolve } from '../contract/pointer.js';
import {
  buildEnvelope,
  buildPublishedEnvelope,
  envelopeSchemaPointer,
  type EnvelopeForm,
  type WebhookEventData,
  type WebhookEventName,
} from '../webhooks/events.js';
import { createEventId } from '../webhooks/ids.js';

interface MediaType {
  examples?: Record<string, { value?: unknown }>;
  example?: unknown;
}

type Envelope = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The example envelopes of an event's webhook, in either form (`event` or `type` names the event). */
function exampleEnvelopes(document: Readonly<OpenApiDocument>, event: WebhookEventName): Envelope[] {
  const media = resolve<MediaType>(document, envelopeSchemaPointer(event).replace(/\/schema$/, '')).node;
  const values = [...Object.values(media.examples ?? {}).map((example) => example.value), media.example];
  return values.filter(
    (value): value is Envelope =>
      isRecord(value) && (value['event'] === event || value['type'] === event) && isRecord(value['data']),
  );
}

/** The example envelope of the contract for `event`; throws when the contract has none. */
export function sampleEnvelope(document: Readonly<OpenApiDocument>, event: WebhookEventName): Envelope {
  const [first] = exampleEnvelopes(document, event);
  if (first === undefined) {
    throw new Error(`The contract has no example envelope for ${event}.`);
  }
  return first;
}

export interface SampleBodyOptions {
  form: EnvelopeForm;
  /** The event's `data`; the contract's example by default. */
  data?: unknown;
  /** When the event happened, epoch ms. */
  at: number;
  /** The session the event is about, in place of the example's. */
  sessionId?: string;
}

/** The body of one delivery of `event`, in either envelope form, as the object to serialise. */
export function sampleBody(
  document: Readonly<OpenApiDocument>,
  event: WebhookEventName,
  options: SampleBodyOptions,
): Envelope {
  const example = sampleEnvelope(document, event);
  // The published form's examples carry no user or correlation id; the seed envelope is then built without.
  const given = (options.data ?? example['data']) as WebhookEventData<WebhookEventName>;
  const data = options.sessionId === undefined ? given : { ...given, session_id: options.sessionId };
  if (options.form === 'published') {
    // The published envelope names the current date version (`x-api-versions`).
    const context = {
      id: createEventId(),
      at: options.at,
      attempt: 1,
      apiVersion: apiVersionCatalogue(document).current,
    };
    return { ...buildPublishedEnvelope(event, data, context) };
  }
  const text = (name: string): string | undefined => (typeof example[name] === 'string' ? example[name] : undefined);
  return {
    ...buildEnvelope(event, data, { userId: text('user_id'), correlationId: text('correlation_id'), at: options.at }),
  };
}
