/**
 * How a fault reads and edits what passes through the server: which key a request carries, which
 * operation it is, a JSON or problem answer, a webhook delivery (re-signed after an edit) and an event
 * block of a stream.
 * @module
 */
import { editJsonText, jsonObjectOf } from '../../control-plane/json-edit.js';
import { signDelivery } from '../../webhooks/signing.js';
import type { DeliveryTarget, FaultDelivery, FaultRequest, FaultResponse, FaultState } from './types.js';

/** Which provisioned key a request carries. */
export function keyOf(request: FaultRequest, state: FaultState): 'a' | 'b' | undefined {
  const token = request.headers['authorization']?.replace(/^bearer\s+/i, '');
  return token === undefined ? undefined : token === state.keys.a ? 'a' : token === state.keys.b ? 'b' : undefined;
}

/** Makes the request carry workspace A's key. */
export function useKeyA(request: FaultRequest, state: FaultState): void {
  if (state.keys.a !== undefined) {
    request.headers['authorization'] = `Bearer ${state.keys.a}`;
  }
}

export function is(request: FaultRequest, method: string, path: RegExp): boolean {
  return request.method === method && path.test(request.url.pathname);
}

/** A list operation: it pages with `cursor`. */
export function isList(request: FaultRequest): boolean {
  return (
    request.method === 'GET' &&
    request.route?.parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'cursor') === true
  );
}

/** What an edit returns when it changed nothing, so the body keeps its bytes. */
export const unchanged = Symbol('unchanged');

type JsonEdit = (json: Record<string, unknown>) => unknown;

/** Parses, changes and re-serialises a JSON body; other bodies are left alone. */
export function editJson(response: FaultResponse, edit: JsonEdit): void {
  response.text = editJsonText(response.text, (json) => edit(json) !== unchanged) ?? response.text;
}

/** The JSON object a request's body holds (known just before the handler), or `undefined`. */
export function requestJson(request: FaultRequest): Record<string, unknown> | undefined {
  return jsonObjectOf(request.body.toString('utf8'));
}

/** Changes the JSON body of a request before its handler; a body that is not JSON is left to the server. */
export function editRequestJson(request: FaultRequest, edit: JsonEdit): void {
  const text = editJsonText(request.body.toString('utf8'), (json) => edit(json) !== unchanged);
  if (text !== undefined) {
    request.body = Buffer.from(text);
  }
}

/** Changes a delivery's JSON body and re-signs it the way the server does, so only the change is wrong. */
export function editDeliveryJson(delivery: FaultDelivery, secret: string, edit: JsonEdit): void {
  const text = editJsonText(delivery.body, (json) => edit(json) !== unchanged);
  if (text !== undefined) {
    delivery.body = text;
    resign(delivery, secret);
  }
}

export function isProblem(response: FaultResponse): boolean {
  return response.headers['content-type']?.startsWith('application/problem+json') === true;
}

/** The problem type URI of a slug, on the base of the contract's catalogue (known or not). */
export function problemType(state: FaultState, slug: string): string {
  const known = state.services.problems.body(404, '').type;
  return `${known.slice(0, known.lastIndexOf('/') + 1)}${slug}`;
}

/** Replaces a response with a problem of the catalogue that carries only the version header. */
export function replaceWithProblem(response: FaultResponse, state: FaultState, status: number, detail: string): void {
  const version = response.headers['x-service-api-version'];
  Object.assign(response, {
    status,
    headers: {
      'content-type': 'application/problem+json',
      ...(version === undefined ? {} : { 'x-service-api-version': version }),
    },
    text: JSON.stringify(state.services.problems.body(status, detail)),
  });
}

/** Replaces a response with a JSON one. */
export function answerJson(response: FaultResponse, status: number, text: string): void {
  Object.assign(response, { status, headers: { ...response.headers, 'content-type': 'application/json' }, text });
}

/** Re-signs a delivery the way the server does, so only the intended change is wrong. */
export function resign(
  delivery: FaultDelivery,
  secret: string,
  timestamp = delivery.headers['x-service-timestamp'],
): void {
  if (timestamp === undefined) {
    return;
  }
  delivery.headers['x-service-timestamp'] = timestamp;
  delivery.headers['x-service-signature'] = signDelivery({ secret, timestamp, rawBody: delivery.body });
}

/** Counts an attempt of a delivery and returns what was seen of it before (`undefined` for its first). */
export function countAttempt(
  delivery: FaultDelivery,
  target: DeliveryTarget,
): { headers: Record<string, string>; attempts: number } | undefined {
  const id = deliveryIdOf(delivery);
  const seen = target.seen.get(id);
  target.seen.set(id, { headers: seen?.headers ?? { ...delivery.headers }, attempts: (seen?.attempts ?? 0) + 1 });
  return seen;
}

export function deliveryIdOf(delivery: FaultDelivery): string {
  return delivery.headers['x-service-delivery-id'] ?? '';
}

/** The event name of a stream block. */
export function eventOf(block: string): string | undefined {
  return /^event: ?(.*)$/m.exec(block)?.[1];
}
