/**
 * Deliveries on the wire: real receivers on 127.0.0.1 check what arrives with the library's own
 * verification functions and the contract's header schemas.
 */
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { createContractValidator } from '../../src/contract/validator.js';
import { buildEnvelope, envelopeSchemaPointer } from '../../src/webhooks/events.js';
import { verifyDelivery, verifyLegacyDelivery } from '../../src/webhooks/signing.js';
import { completed, createHarness, startOfTest, subscribe } from './fixtures/harness.js';
import { gate, receiversClosedAfterEach, startReceiver } from './fixtures/receiver.js';

const validator = createContractValidator(loadContract());
const receiver = receiversClosedAfterEach();

function headerSchema(name: string): string {
  return `#/components/parameters/${name}/schema`;
}

describe('a delivery to a subscription', () => {
  test('carries the documented headers and a body the receiver verifies with verifyDelivery', async () => {
    const { time, outbox, dispatcher } = createHarness();
    let verdict: unknown;
    let target = { secret: '' };
    const hook = await receiver((request) => {
      const { headers, body: rawBody } = request;
      verdict = verifyDelivery({ secret: target.secret, headers, rawBody, now: time.now() });
      return 204;
    });
    target = subscribe(outbox, hook.url);
    dispatcher.start();
    const envelope = completed(1);
    const [deliveryId] = dispatcher.publish(envelope);
    await hook.waitFor(1);
    await dispatcher.idle();

    expect(verdict).toEqual({ ok: true });
    const [request] = hook.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/hooks' });
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/1.0',
      'x-service-event': 'session.complete',
      'x-service-timestamp': String(Math.floor(startOfTest / 1000)),
      'x-service-delivery-id': deliveryId,
    });
    expect(request?.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    for (const [header, parameter] of [
      ['x-service-event', 'WebhookEventHeader'],
      ['x-service-signature', 'WebhookSignatureHeader'],
      ['x-service-delivery-id', 'WebhookDeliveryIdHeader'],
      ['user-agent', 'WebhookUserAgentHeader'],
    ] as const) {
      expect(validator.validate(headerSchema(parameter), request?.headers[header]).errors).toEqual([]);
    }
    const timestamp = Number(request?.headers['x-service-timestamp']);
    expect(validator.validate(headerSchema('WebhookTimestampHeader'), timestamp).errors).toEqual([]);
    expect(request?.body).toBe(JSON.stringify(envelope));
    const body: unknown = JSON.parse(request?.body ?? '');
    expect(validator.validate(envelopeSchemaPointer('session.complete'), body).errors).toEqual([]);
    expect(outbox.getDelivery(deliveryId as string)).toMatchObject({ status: 'succeeded', attemptsMade: 1 });
  });

  test('goes only to active subscriptions that list the event', async () => {
    const { outbox, dispatcher } = createHarness();
    const listening = await receiver();
    const deaf = await receiver();
    subscribe(outbox, listening.url, { events: ['session.complete'] });
    subscribe(outbox, deaf.url, { events: ['outcomes.ready'] });
    dispatcher.start();
    expect(dispatcher.publish(completed(2))).toHaveLength(1);
    await listening.waitFor(1);
    await dispatcher.idle();
    expect(deaf.requests).toHaveLength(0);
  });

  test('a redirect is a failed attempt and is not followed', async () => {
    const { outbox, dispatcher } = createHarness();
    const elsewhere = await receiver();
    const redirecting = await receiver(() => ({ status: 307, headers: { Location: elsewhere.url } }));
    const target = subscribe(outbox, redirecting.url);
    dispatcher.start();
    dispatcher.publish(completed(3));
    await redirecting.waitFor(1);
    await dispatcher.idle();
    expect(elsewhere.requests).toHaveLength(0);
    expect(outbox.listAttempts(target.id)).toMatchObject([
      {
        status: 'retry_scheduled',
        responseCode: 307,
        error: 'Receiver answered 307 Temporary Redirect; redirects are not followed.',
      },
    ]);
  });

  test('an address refused by the URL guard is never contacted', async () => {
    const { outbox, dispatcher } = createHarness({ allowPrivate: false });
    const hook = await receiver();
    const target = subscribe(outbox, hook.url);
    dispatcher.start();
    dispatcher.publish(completed(4));
    await dispatcher.idle();
    expect(hook.requests).toHaveLength(0);
    expect(outbox.listAttempts(target.id)).toMatchObject([
      {
        status: 'retry_scheduled',
        responseCode: null,
        error: 'Not sent: The address 127.0.0.1 is a loopback address.',
      },
    ]);
  });

  test('a receiver that does not answer in time fails the attempt with no response code', async () => {
    const { outbox, dispatcher } = createHarness({ attemptTimeoutMs: 200 });
    const never = gate();
    const silent = await receiver(() => never.promise.then(() => 200));
    const target = subscribe(outbox, silent.url);
    dispatcher.start();
    dispatcher.publish(completed(5));
    await dispatcher.idle();
    never.open();
    expect(outbox.listAttempts(target.id)).toMatchObject([
      { status: 'retry_scheduled', responseCode: null, error: 'No answer within 0.2 seconds.' },
    ]);
  });

  test('a receiver that is not listening fails the attempt', async () => {
    const { outbox, dispatcher } = createHarness();
    const gone = await startReceiver();
    await gone.close();
    const target = subscribe(outbox, gone.url);
    dispatcher.start();
    dispatcher.publish(completed(6));
    await dispatcher.idle();
    expect(outbox.listAttempts(target.id)).toMatchObject([
      { status: 'retry_scheduled', responseCode: null, error: expect.stringContaining('ECONNREFUSED') },
    ]);
  });
});

describe('the legacy per-key webhook', () => {
  test('gets session.complete with X-Mcp-* headers verified by verifyLegacyDelivery, and nothing else', async () => {
    const { outbox, dispatcher } = createHarness();
    let verdict: unknown;
    let key = { secret: '' };
    const hook = await receiver((request) => {
      verdict = verifyLegacyDelivery({ secret: key.secret, headers: request.headers, rawBody: request.body });
      return 200;
    });
    key = subscribe(outbox, hook.url, { id: 'key_01JD8Q2N5V7X', kind: 'legacy', events: ['session.complete'] });
    dispatcher.start();
    expect(dispatcher.publish(completed(7))).toEqual([]);
    const deliveryId = dispatcher.enqueue('key_01JD8Q2N5V7X', completed(7));
    const failed = buildEnvelope(
      'session.failed',
      {
        session_id: '3f6c2a9e-8b1d-4c7e-a2f5-9d0b6e4c1a83',
        error_code: 'upstream_error',
        error_message: 'Model timeout.',
      },
      { at: startOfTest },
    );
    expect(dispatcher.enqueue('key_01JD8Q2N5V7X', failed)).toBeUndefined();
    await hook.waitFor(1);
    await dispatcher.idle();
    expect(verdict).toEqual({ ok: true });
    const headers = hook.requests[0]?.headers ?? {};
    expect(headers).toMatchObject({
      'x-mcp-event': 'session.complete',
      'x-mcp-delivery-id': deliveryId,
      'x-mcp-timestamp': String(Math.floor(startOfTest / 1000)),
      'content-type': 'application/json',
    });
    expect(Object.keys(headers).filter((name) => name.startsWith('x-service-'))).toEqual([]);
    expect(hook.requests).toHaveLength(1);
  });

  test('enqueue refuses an unknown target', () => {
    const { dispatcher } = createHarness();
    expect(dispatcher.enqueue('key_unknown', completed(9))).toBeUndefined();
  });
});
