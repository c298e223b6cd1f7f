/**
 * `boardkit webhooks trigger`: one signed delivery of any event of the contract to a receiver, as the
 * service would send it (after `stripe trigger`). The body comes from the contract's example of the event
 * (or the user's `data`), in the seed's envelope or the published one; `legacy` sends the deprecated
 * per-key form, which carries `session.complete` only (seed "Legacy per-key webhook").
 * @module
 */
import type { OpenApiDocument } from '../contract/load.js';
import type { PostResult } from '../webhooks/delivery-request.js';
import { checkWebhookSecret } from '../webhooks/ids.js';
import { isWebhookEventName, webhookEventNames, type EnvelopeForm, type WebhookEventName } from '../webhooks/events.js';
import { signedDelivery, type OutgoingDelivery } from './delivery.js';
import { eventBodyErrors } from './event-body-check.js';
import { applyOverrides, type FieldOverride } from './overrides.js';
import { sampleBody } from './samples.js';
import { receiverSender, type SendOptions } from './send.js';

export interface TriggerOptions extends SendOptions {
  secret: string;
  /** The events to send, one delivery each. */
  events: readonly WebhookEventName[];
  envelope?: EnvelopeForm;
  legacy?: boolean;
  /** The `data` of every event sent, instead of the contract's example. */
  data?: unknown;
  /** Single fields of every body changed (`--set path=value`), after `data`. */
  overrides?: readonly FieldOverride[];
  /** Check a body the user changed against the event's schema (the default); `false` sends it as it is. */
  validate?: boolean;
}

export interface TriggerResult {
  delivery: OutgoingDelivery;
  answer: PostResult;
}

/** Thrown for a request the tool refuses before sending anything (unknown event, legacy misuse). */
export class TriggerUsageError extends Error {
  override name = 'TriggerUsageError';
}

/** The events named on the command line: `--all` means every event of every published list. */
export function eventsToTrigger(event: string | undefined, all: boolean): WebhookEventName[] {
  if (all) {
    return [...webhookEventNames];
  }
  if (event === undefined) {
    throw new TriggerUsageError('name an event, or pass --all');
  }
  if (!isWebhookEventName(event)) {
    throw new TriggerUsageError(`${event} is not an event of the contract; one of: ${webhookEventNames.join(', ')}`);
  }
  return [event];
}

export async function triggerEvents(
  document: Readonly<OpenApiDocument>,
  options: TriggerOptions,
): Promise<TriggerResult[]> {
  checkWebhookSecret(options.secret, '--secret');
  const kind = options.legacy === true ? 'legacy' : 'subscription';
  const wrong = options.events.find((event) => event !== 'session.complete');
  if (kind === 'legacy' && wrong !== undefined) {
    throw new TriggerUsageError(`the legacy per-key webhook fires session.complete only, not ${wrong}`);
  }
  const form = options.envelope ?? 'seed';
  const changed = options.data !== undefined || (options.overrides?.length ?? 0) > 0;
  // Every body is built and checked before the first is sent: a refused one sends nothing.
  const bodies = options.events.map((event) => {
    const sample = sampleBody(document, event, { form, data: options.data, at: Date.now() });
    const body = applyOverrides(sample, options.overrides ?? []);
    const errors = changed && options.validate !== false ? eventBodyErrors(document, event, form, body) : [];
    if (errors.length > 0) {
      throw new TriggerUsageError(
        `the ${event} body does not match its schema (--no-validate sends it anyway):\n  ${errors.join('\n  ')}`,
      );
    }
    return { event, body: JSON.stringify(body) };
  });
  const send = await receiverSender(options);
  const results: TriggerResult[] = [];
  for (const { event, body } of bodies) {
    const delivery = signedDelivery({ event, secret: options.secret, body, kind });
    results.push({ delivery, answer: await send(delivery) });
  }
  return results;
}

function headerLines(headers: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(headers)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `  ${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`);
}

/** What was sent and what the receiver answered, for the terminal. */
export function describeTrigger(url: string, { delivery, answer }: TriggerResult): string {
  const status =
    answer.responseCode === null
      ? `no answer: ${answer.error ?? 'unknown'}`
      : `${answer.responseCode}${answer.error === null ? ' (delivered)' : ` (${answer.error})`}`;
  const lines = [
    `→ POST ${url}  ${delivery.event}`,
    ...headerLines(delivery.headers),
    '',
    `  ${delivery.body}`,
    '',
    `← ${status} in ${answer.durationMs} ms`,
  ];
  if (answer.response !== undefined) {
    lines.push(...headerLines(answer.response.headers));
    if (answer.response.body !== '') {
      lines.push('', `  ${answer.response.body}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
