/**
 * The shape of a case of `boardkit webhooks check-receiver` and the helpers every case builds its
 * requests with: a case is a few signed deliveries, the answer each must get and, where the receiver
 * shows what it handled, how many times each delivery id must have been handled.
 * @module
 */
import type { EnvelopeForm, WebhookEventName } from '../webhooks/events.js';
import { signedDelivery, type OutgoingDelivery } from './delivery.js';

/** What a request of a case must be answered with: any 2xx, or one status. */
export type ExpectedAnswer = '2xx' | 400 | 401;

/** What a body is built from besides the event: the session it is about, and when it happened. */
export interface BodyOverrides {
  sessionId?: string;
  /** When the event happened, epoch ms. */
  at?: number;
}

export interface CaseInput {
  secret: string;
  /** The secret the receiver still accepts while moving to `secret`, when the user gave one. */
  previousSecret?: string | undefined;
  /** A delivery body (an envelope object) to start from, with its event. */
  body: Record<string, unknown>;
  event: WebhookEventName;
  /** The envelope forms the receiver expects; `body` is in the first. */
  forms: readonly EnvelopeForm[];
  /** A body of another event, or in another form, from the contract's example of the event. */
  sample(event: WebhookEventName, form: EnvelopeForm, overrides?: BodyOverrides): Record<string, unknown>;
  /** The wall clock, Unix seconds. */
  now: number;
  /** The attempt timeout of the contract, ms. */
  timeoutMs: number;
}

/** Why a case does not run for this receiver, and what would let it run. */
export interface CaseSkip {
  reason: string;
  remedy: string;
}

export interface ReceiverCase {
  name: string;
  requirement: string;
  /** What the case sends, in words, for reports. */
  title: string;
  expect: ExpectedAnswer;
  /** The requests, sent in order; each must get `expect`. */
  requests(input: CaseInput): OutgoingDelivery[];
  /** Where the receiver shows what it handled: each delivery id sent must have been handled once. */
  handledOnce?: boolean;
  /** Set when the case cannot run with what the user gave. */
  skip?(input: CaseInput): CaseSkip | undefined;
}

/** One delivery of `input.event` with `body`, signed with the secret at `input.now` unless overridden. */
export function delivery(
  input: CaseInput,
  body: string,
  overrides: { secret?: string; timestamp?: number; deliveryId?: string; event?: WebhookEventName } = {},
): OutgoingDelivery {
  return signedDelivery({
    event: overrides.event ?? input.event,
    secret: overrides.secret ?? input.secret,
    body,
    timestamp: overrides.timestamp ?? input.now,
    ...(overrides.deliveryId === undefined ? {} : { deliveryId: overrides.deliveryId }),
  });
}

/** The case's starting body as compact JSON, the form `JSON.stringify` gives. */
export function compact(input: CaseInput): string {
  return JSON.stringify(input.body);
}
