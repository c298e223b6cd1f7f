/**
 * Reading webhook deliveries: their evidence form, their signature and timestamp (verified with the
 * kit's own src/webhooks/signing, the same code receivers use), and their contract schemas.
 * @module
 */
import type { ParameterObject, RequestBodyObject } from '../../src/contract/openapi-objects.js';
import { signDelivery } from '../../src/webhooks/signing.js';
import { deliveryHeaders } from '../../src/webhooks/headers.js';
import { childPointer, pointerOf, resolve } from '../../src/contract/pointer.js';
import type { Contract } from './contract.js';
import type { Exchange, ExchangeLog } from './exchange.js';
import type { Delivery } from './receiver.js';

export { deliveryHeaders };
export { webhookUserAgent, webhookContentType } from '../../src/webhooks/headers.js';

export function header(delivery: Delivery, name: string): string | undefined {
  return delivery.headers[name.toLowerCase()];
}

/** A delivery as an inbound exchange, for evidence. */
export function deliveryEvidence(log: ExchangeLog, check: string, url: string, delivery: Delivery): Exchange {
  return {
    id: log.nextId(),
    check,
    inbound: true,
    request: { method: delivery.method, url, headers: delivery.headers, body: delivery.rawBody.toString('utf8') },
    response: { status: delivery.answered, headers: {}, body: '' },
    startedAt: delivery.receivedAt,
    durationMs: 0,
  };
}

export function bodyOf(delivery: Delivery): Record<string, unknown> | undefined {
  try {
    const body = JSON.parse(delivery.rawBody.toString('utf8')) as unknown;
    return body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The envelope forms the published descriptions show: the seed's names the event in `event`, the one of
 * the service's current webhooks page in `type` (with `id`, `created_at`, `delivery_attempt`,
 * `api_version`, or only `id` in its per-event form). The contract accepts both (`WebhookEvent*Delivery`).
 */
export type EnvelopeForm = 'seed' | 'published';

export const envelopeForms: readonly EnvelopeForm[] = ['seed', 'published'];

/** The form of a delivered body, told apart as the contract does; `undefined` for neither. */
export function envelopeFormOf(body: Record<string, unknown> | undefined): EnvelopeForm | undefined {
  if (typeof body?.['event'] === 'string') {
    return 'seed';
  }
  return typeof body?.['type'] === 'string' ? 'published' : undefined;
}

/** The event a delivered body is about, from `event` or `type` by its form. */
export function eventOfBody(body: Record<string, unknown> | undefined): string | undefined {
  const form = envelopeFormOf(body);
  return form === undefined ? undefined : (body?.[form === 'seed' ? 'event' : 'type'] as string);
}

/**
 * What stays the same on every attempt of one delivery: the body, less the published form's attempt
 * counter (`delivery_attempt`, 1 on the first attempt), which a retry must change.
 */
export function deliveryContent(delivery: Delivery): string {
  const body = bodyOf(delivery);
  if (body === undefined) {
    return delivery.rawBody.toString('utf8');
  }
  if (envelopeFormOf(body) === 'published') {
    const { delivery_attempt: _attempt, ...rest } = body;
    return JSON.stringify(rest);
  }
  return JSON.stringify(body);
}

/** Whether X-Service-Signature is the HMAC of `<X-Service-Timestamp>.<raw body>` under `secret`. */
export function signatureValid(delivery: Delivery, secret: string): boolean {
  const timestamp = header(delivery, deliveryHeaders.timestamp);
  const signature = header(delivery, deliveryHeaders.signature);
  return (
    timestamp !== undefined &&
    signature !== undefined &&
    signature === signDelivery({ secret, timestamp, rawBody: delivery.rawBody })
  );
}

/** Problems with a delivery's headers and body against `webhooks[event].post` of the contract. */
export function deliverySchemaProblems(contract: Contract, delivery: Delivery): string[] {
  const body = bodyOf(delivery);
  const event = eventOfBody(body);
  const operation = event === undefined ? undefined : contract.document.webhooks?.[event];
  if (event === undefined || operation === undefined) {
    return [`no webhook named ${event ?? '(no event or type member)'} in the contract`];
  }
  const problems: string[] = [];
  const postPointer = childPointer(resolve(contract.document, pointerOf('webhooks', event)).pointer, 'post');
  const post = resolve<{ parameters?: unknown[]; requestBody?: unknown }>(contract.document, postPointer);
  for (const [index] of (post.node.parameters ?? []).entries()) {
    const parameter = resolve<ParameterObject>(contract.document, childPointer(post.pointer, 'parameters', index));
    if (parameter.node.in !== 'header') {
      continue;
    }
    const value = header(delivery, parameter.node.name);
    if (value === undefined) {
      if (parameter.node.required === true) {
        problems.push(`header ${parameter.node.name} is missing`);
      }
      continue;
    }
    const schemaPointer = childPointer(parameter.pointer, 'schema');
    const schema = resolve<{ type?: unknown }>(contract.document, schemaPointer).node;
    const typed = schema.type === 'integer' && /^\d+$/.test(value) ? Number(value) : value;
    if (!contract.validator.validate(schemaPointer, typed).valid) {
      problems.push(`header ${parameter.node.name} ${JSON.stringify(value)} does not match its schema`);
    }
  }
  const requestBody = resolve<RequestBodyObject>(contract.document, childPointer(post.pointer, 'requestBody'));
  const media = resolve(contract.document, childPointer(requestBody.pointer, 'content', 'application/json'));
  const result = contract.validator.validate(childPointer(media.pointer, 'schema'), body);
  problems.push(
    ...result.errors.slice(0, 6).map((error) => `body ${error.instancePath || '/'} ${error.message ?? ''}`),
  );
  return problems;
}
