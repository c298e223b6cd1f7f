/**
 * Faults in the event stream and in webhook deliveries (the latter applied by the relay the proxy puts
 * between the implementation and the suite's receiver).
 * @module
 */
import { createHash } from 'node:crypto';
import { editJson, eventOf, is, resign } from './helpers.js';
import type { Fault, RelayedDelivery } from './types.js';

const eventsPath = /^\/v1\/sessions\/[^/]+\/events$/;

function deliveryId(delivery: RelayedDelivery): string {
  return delivery.headers['x-service-delivery-id'] ?? '';
}

export const deliveryFaults: Fault[] = [
  {
    name: 'sse-drop-on-resume',
    breaks: ['SSE-004'],
    event: (request, block, index) => (request.headers['last-event-id'] !== undefined && index === 0 ? '' : block),
  },
  { name: 'sse-not-event-stream', breaks: ['SSE-001'], response: (request, response) => (is(request, 'GET', eventsPath) ? void (response.headers['content-type'] = 'text/plain') : undefined) },
  { name: 'sse-data-not-json', breaks: ['SSE-002'], event: (_, block) => (eventOf(block) === 'round.complete' ? block.replace(/^data: ?.*$/m, 'data: round done') : block) },
  { name: 'sse-ids-restart', breaks: ['SSE-003'], event: (_, block) => block.replace(/^id: ?\d+$/m, 'id: 1') },
  { name: 'sse-no-outcomes-url', breaks: ['SSE-005'], event: (_, block) => (eventOf(block) === 'session.complete' ? block.replace(/^data: ?.*$/m, 'data: {}') : block) },
  { name: 'sse-no-retry', breaks: ['SSE-006'], event: (_, block) => block.replace(/^retry: ?\d+\n/m, '') },
  { name: 'sse-finite-ignored', breaks: ['SSE-007'], request: (request) => void request.url.searchParams.delete('finite') },
  {
    name: 'webhook-secret-shown',
    breaks: ['HOOK-001'],
    // Reading a subscription shows its secret again, as a server that keeps it in the record might.
    response: (request, response, state) =>
      is(request, 'GET', /^\/v1\/webhooks\/[^/]+$/)
        ? editJson(response, (body) => (body['signing_secret'] = state.relays.get(/\/_relay\/(\d+)$/.exec(String(body['url']))?.[1] ?? '')?.secret))
        : undefined,
  },
  {
    name: 'webhook-wrong-user-agent',
    breaks: ['HOOK-002'],
    delivery: (delivery) => void (delivery.headers['user-agent'] = 'curl/8.0'),
  },
  {
    name: 'webhook-bad-signature',
    breaks: ['HOOK-003'],
    delivery: (delivery) => resign(delivery, 'whsec_not_the_subscription_secret'),
  },
  {
    name: 'webhook-stale-timestamp',
    breaks: ['HOOK-004'],
    delivery: (delivery, relay) => resign(delivery, relay.secret, String(Number(delivery.headers['x-service-timestamp']) - 600)),
  },
  {
    name: 'webhook-reuse-delivery-id',
    breaks: ['HOOK-005'],
    delivery: (delivery) => void (delivery.headers['x-service-delivery-id'] = 'dlv_same0000same0000'),
  },
  {
    name: 'webhook-body-altered',
    breaks: ['HOOK-006'],
    delivery(delivery, relay) {
      const body = JSON.parse(delivery.body.toString('utf8')) as Record<string, unknown>;
      delete body['data'];
      delivery.body = Buffer.from(JSON.stringify(body));
      resign(delivery, relay.secret);
    },
  },
  {
    name: 'webhook-listing-wrong-code',
    breaks: ['HOOK-007'],
    response: (request, response) => (is(request, 'GET', /\/deliveries$/) ? editJson(response, (body) => (body['items'] as Array<Record<string, unknown>>).forEach((item) => (item['response_code'] = 299))) : undefined),
  },
  {
    name: 'webhook-skip-retries',
    breaks: ['HOOK-008'],
    delivery(delivery, relay) {
      const seen = relay.seen.get(deliveryId(delivery));
      relay.seen.set(deliveryId(delivery), { headers: { ...delivery.headers }, attempts: (seen?.attempts ?? 0) + 1 });
      if (seen !== undefined) {
        delivery.forward = false;
        delivery.answerServer = 503;
      }
    },
  },
  {
    name: 'webhook-no-pause',
    breaks: ['HOOK-009'],
    delivery(delivery, relay) {
      // Every third delivery's first attempt is reported a success, so the breaker never counts to 10.
      const attempts = (relay.seen.get(deliveryId(delivery))?.attempts ?? 0) + 1;
      relay.seen.set(deliveryId(delivery), { headers: { ...delivery.headers }, attempts });
      const deliveries = relay.seen.size;
      if (attempts === 1 && deliveries % 3 === 0) {
        delivery.answerServer = 200;
      }
    },
  },
  {
    name: 'webhook-retry-after-success',
    breaks: ['HOOK-010'],
    delivery: (delivery) => void (delivery.answerServer = 500),
  },
  {
    name: 'webhook-private-allowed',
    breaks: ['HOOK-011'],
    // Answers like a server without the URL guard: the subscription to a private address is created.
    request(request) {
      if (!is(request, 'POST', /^\/v1\/webhooks$/)) {
        return undefined;
      }
      const body = JSON.parse(request.body.toString('utf8')) as { url?: string; label?: string; events?: string[] };
      if (body.url === undefined || !/^http:\/\/(10\.|169\.254\.|192\.168\.)/.test(body.url)) {
        return undefined;
      }
      const now = new Date().toISOString();
      const subscription = { id: 'wh_private0000000001', label: body.label, url: body.url, events: body.events, status: 'active', consecutive_failures: 0, paused_at: null, retry_schedule: { waits_minutes: [1, 5, 15, 60], max_attempts: 5, span_minutes: 81 }, created_at: now, updated_at: now };
      return {
        status: 201,
        headers: { 'content-type': 'application/json', 'x-service-api-version': '2026-10-01' },
        text: JSON.stringify({ ok: true, subscription, signing_secret: 'whsec_private000000000000000000000', verify_instructions: 'Verify the signature.' }),
      };
    },
  },
  {
    name: 'webhook-unsubscribed-event',
    breaks: ['HOOK-012'],
    delivery(delivery, relay) {
      const body = JSON.parse(delivery.body.toString('utf8')) as Record<string, unknown>;
      const copy: RelayedDelivery = { headers: { ...delivery.headers }, body: Buffer.alloc(0), forward: true, answerServer: undefined, extra: [] };
      copy.body = Buffer.from(JSON.stringify({ ...body, event: 'outcomes.ready', data: { session_id: (body['data'] as { session_id?: unknown } | undefined)?.session_id, format: 'decision_memo', outcome_id: '6a1c2e4f-8b3d-4f5a-9c7e-1d2b3a4c5e6f' } }));
      copy.headers['x-service-event'] = 'outcomes.ready';
      copy.headers['x-service-delivery-id'] = `dlv_${createHash('sha256').update(deliveryId(delivery)).digest('hex').slice(0, 20)}`;
      resign(copy, relay.secret);
      delivery.extra.push(copy);
    },
  },
  {
    name: 'webhook-same-signature-on-retry',
    breaks: ['HOOK-013'],
    delivery(delivery, relay) {
      const first = relay.seen.get(deliveryId(delivery));
      if (first === undefined) {
        relay.seen.set(deliveryId(delivery), { headers: { ...delivery.headers }, attempts: 1 });
        return;
      }
      delivery.headers['x-service-timestamp'] = first.headers['x-service-timestamp'] ?? '';
      delivery.headers['x-service-signature'] = first.headers['x-service-signature'] ?? '';
    },
  },
  {
    name: 'webhook-enable-noop',
    breaks: ['HOOK-014'],
    request: (request) => (is(request, 'POST', /^\/v1\/webhooks\/[^/]+\/enable$/) ? void (request.method = 'GET', request.url.pathname = request.url.pathname.replace(/\/enable$/, '')) : undefined),
  },
];
