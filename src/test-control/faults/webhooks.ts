/**
 * Faults in webhook subscriptions and deliveries (seed "Webhook subscriptions", "Delivery, retry and
 * pause"): the secret shown again, deliveries with the wrong user agent, signature, timestamp, id or
 * body, retries skipped, repeated after success or signed alike, the breaker never tripping, private
 * addresses reached, unsubscribed events sent, re-enabling doing nothing.
 * @module
 */
import { createHash } from 'node:crypto';
import { countAttempt, deliveryIdOf, editDeliveryJson, editJson, is, resign } from './exchange-edits.js';
import type { Fault, FaultDelivery } from './types.js';

const subscriptionPath = /^\/v1\/webhooks\/([^/]+)$/;

export const webhookFaults: Fault[] = [
  {
    name: 'webhook-secret-shown',
    breaks: ['HOOK-001'],
    // Reading a subscription shows its secret again, as a server that keeps it in the record might.
    response(request, response, state) {
      const id = subscriptionPath.exec(request.url.pathname)?.[1];
      if (request.method === 'GET' && id !== undefined) {
        editJson(response, (body) => (body['signing_secret'] = state.services.webhooks.outbox.getTarget(id)?.secret));
      }
    },
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
    delivery: (delivery, target) =>
      resign(delivery, target.secret, String(Number(delivery.headers['x-service-timestamp']) - 600)),
  },
  {
    name: 'webhook-reuse-delivery-id',
    breaks: ['HOOK-005'],
    delivery: (delivery) => void (delivery.headers['x-service-delivery-id'] = 'dlv_same0000same0000'),
  },
  {
    name: 'webhook-body-altered',
    breaks: ['HOOK-006'],
    delivery: (delivery, target) => editDeliveryJson(delivery, target.secret, (body) => delete body['data']),
  },
  {
    name: 'webhook-listing-wrong-code',
    breaks: ['HOOK-007'],
    response: (request, response) =>
      is(request, 'GET', /\/deliveries$/)
        ? editJson(response, (body) =>
            (body['items'] as Array<Record<string, unknown>>).forEach((item) => (item['response_code'] = 299)),
          )
        : undefined,
  },
  {
    name: 'webhook-skip-retries',
    breaks: ['HOOK-008'],
    // Only first attempts reach the receiver; every retry is recorded as failed without being sent.
    delivery(delivery, target) {
      if (countAttempt(delivery, target) !== undefined) {
        delivery.forward = false;
        delivery.reportStatus = 503;
      }
    },
  },
  {
    name: 'webhook-no-pause',
    breaks: ['HOOK-009'],
    delivery(delivery, target) {
      // Every third delivery's first attempt is recorded a success, so the breaker never counts to 10.
      const first = countAttempt(delivery, target) === undefined;
      if (first && target.seen.size % 3 === 0) {
        delivery.reportStatus = 200;
      }
    },
  },
  {
    name: 'webhook-retry-after-success',
    breaks: ['HOOK-010'],
    delivery: (delivery) => void (delivery.reportStatus = 500),
  },
  {
    name: 'webhook-private-allowed',
    breaks: ['HOOK-011'],
    // Delivers like a server without the URL guard: private and loopback addresses are reached.
    delivery: (delivery) => void (delivery.guarded = false),
  },
  {
    name: 'webhook-unsubscribed-event',
    breaks: ['HOOK-012'],
    delivery(delivery, target) {
      const body = JSON.parse(delivery.body) as Record<string, unknown>;
      const sessionId = (body['data'] as { session_id?: unknown } | undefined)?.session_id;
      const copy: FaultDelivery = {
        headers: { ...delivery.headers, 'x-service-event': 'outcomes.ready' },
        body: JSON.stringify({
          ...body,
          event: 'outcomes.ready',
          data: { session_id: sessionId, format: 'decision_memo', outcome_id: '6a1c2e4f-8b3d-4f5a-9c7e-1d2b3a4c5e6f' },
        }),
        forward: true,
        guarded: true,
        reportStatus: undefined,
        extra: [],
      };
      copy.headers['x-service-delivery-id'] =
        `dlv_${createHash('sha256').update(deliveryIdOf(delivery)).digest('hex').slice(0, 20)}`;
      resign(copy, target.secret);
      delivery.extra.push(copy);
    },
  },
  {
    name: 'webhook-same-signature-on-retry',
    breaks: ['HOOK-013'],
    delivery(delivery, target) {
      const first = countAttempt(delivery, target);
      if (first !== undefined) {
        delivery.headers['x-service-timestamp'] = first.headers['x-service-timestamp'] ?? '';
        delivery.headers['x-service-signature'] = first.headers['x-service-signature'] ?? '';
      }
    },
  },
  {
    name: 'webhook-enable-noop',
    breaks: ['HOOK-014'],
    // Re-enabling is answered with the subscription as it is: still paused.
    request(request) {
      if (is(request, 'POST', /^\/v1\/webhooks\/[^/]+\/enable$/)) {
        request.method = 'GET';
        request.url.pathname = request.url.pathname.replace(/\/enable$/, '');
      }
    },
  },
];
