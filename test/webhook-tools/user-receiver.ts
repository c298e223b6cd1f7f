/**
 * A webhook receiver written the way docs/webhooks.md shows it (node:http, the raw body, an HMAC compared
 * in constant time, one action per X-Service-Delivery-Id), on 127.0.0.1, with one switch per mistake the
 * receiver suite's delivery-condition cases must catch. It lists at `GET /handled` the delivery ids it
 * acted on, one entry per time (receivers.ts serves it).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { startReceiver, type Answer, type TestReceiver } from './receivers.js';

export interface Mistakes {
  /** Answers 409 to an event older than the latest it saw of the same session. */
  refusesOlderEvents?: boolean;
  /** Answers 204 to an event older than the latest it saw of the same session, without acting on it. */
  dropsOlderEvents?: boolean;
  /** Remembers the signatures it handled instead of the delivery ids. */
  deduplicatesBySignature?: boolean;
  /** Does the work of this event, `ms` long, before answering. */
  slow?: { event: string; ms: number };
  /** Reads the event from `event` only, and answers 400 to a body without it. */
  seedEnvelopeOnly?: boolean;
  /** Verifies with the new secret only, during a move to it. */
  ignoresPreviousSecret?: boolean;
}

const toleranceSeconds = 300;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The docs' `checkDelivery`: `'ok'`, or the status to answer. */
function checkDelivery(secret: string, rawBody: Buffer, signature?: string, timestamp?: string): 'ok' | 400 | 401 {
  if (!signature || !timestamp) {
    return 400;
  }
  if (!/^\d+$/.test(timestamp) || Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > toleranceSeconds) {
    return 401;
  }
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  const received = Buffer.from(signature.startsWith('sha256=') ? signature.slice(7) : '', 'hex');
  return received.length === expected.length && timingSafeEqual(received, expected) ? 'ok' : 401;
}

interface Delivery {
  event?: string;
  type?: string;
  at?: string;
  created_at?: string;
  data?: { session_id?: string };
}

/** The receiver's answer to one delivery, with the mistakes asked for. */
function userAnswer(secrets: readonly string[], mistakes: Mistakes): Answer {
  const seen = new Set<string>();
  const latest = new Map<string, number>();
  return (rawBody, headers, handled) => {
    const signature = header(headers, 'x-service-signature');
    const timestamp = header(headers, 'x-service-timestamp');
    const verdicts = (mistakes.ignoresPreviousSecret === true ? secrets.slice(0, 1) : secrets).map((secret) =>
      checkDelivery(secret, rawBody, signature, timestamp),
    );
    const verdict = verdicts.includes('ok') ? 'ok' : (verdicts[0] ?? 401);
    if (verdict !== 'ok') {
      return verdict;
    }
    const delivery = JSON.parse(rawBody.toString('utf8')) as Delivery;
    const event = mistakes.seedEnvelopeOnly === true ? delivery.event : (delivery.event ?? delivery.type);
    if (event === undefined) {
      return 400;
    }
    const deliveryId = header(headers, 'x-service-delivery-id') ?? '';
    const key = mistakes.deduplicatesBySignature === true ? (signature ?? '') : deliveryId;
    const session = delivery.data?.session_id ?? '';
    const at = Date.parse(delivery.at ?? delivery.created_at ?? '');
    const older = !Number.isNaN(at) && at < (latest.get(session) ?? -Infinity);
    if (older && mistakes.refusesOlderEvents === true) {
      return 409;
    }
    if (!seen.has(key) && !(older && mistakes.dropsOlderEvents === true)) {
      seen.add(key);
      handled.push(deliveryId);
    }
    if (!Number.isNaN(at) && !older) {
      latest.set(session, at);
    }
    const slow = mistakes.slow;
    return event === slow?.event ? new Promise((done) => setTimeout(() => done(204), slow.ms)) : 204;
  };
}

export function startUserReceiver(secrets: readonly string[], mistakes: Mistakes = {}): Promise<TestReceiver> {
  return startReceiver(userAnswer(secrets, mistakes));
}
