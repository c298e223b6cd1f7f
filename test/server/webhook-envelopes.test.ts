/**
 * The envelope a subscription chooses (docs/decisions.md "Webhooks"): the seed's (`event`, `user_id`,
 * `correlation_id`, `at`, `data`) or the one of the service's current webhooks page (`id`, `type`,
 * `created_at`, `data`, `delivery_attempt`, `api_version`), delivered over real HTTP to real receivers,
 * signed alike, and valid against the contract's webhook body schemas.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { envelopeSchemaPointer, type WebhookEventName } from '../../src/webhooks/events.js';
import { verifyDelivery } from '../../src/webhooks/signing.js';
import { getJson, lineupStart, settle, startSession, startTestServer, waitFor, type TestServer } from './harness.js';
import { startReceiver, type Delivery, type Receiver } from './receiver.js';

let server: TestServer;
let seedReceiver: Receiver;
let publishedReceiver: Receiver;

beforeAll(async () => {
  server = await startTestServer();
  seedReceiver = await startReceiver();
  publishedReceiver = await startReceiver();
});

afterAll(async () => {
  await server.stop();
  await seedReceiver.close();
  await publishedReceiver.close();
});

async function subscribe(
  receiver: Receiver,
  events: string[],
  envelope?: string,
): Promise<{ id: string; secret: string }> {
  const response = await server.request('/v1/webhooks', {
    method: 'POST',
    json: { label: 'Envelope test', url: receiver.url, events, ...(envelope === undefined ? {} : { envelope }) },
  });
  expect(response.status).toBe(201);
  const created = (await response.json()) as { subscription: { id: string }; signing_secret: string };
  return { id: created.subscription.id, secret: created.signing_secret };
}

const idle = (): Promise<void> => server.server.services.webhooks.dispatcher.idle();

function bodyOf(delivery: Delivery): Record<string, unknown> {
  return JSON.parse(delivery.rawBody) as Record<string, unknown>;
}

function validAgainstItsWebhook(body: Record<string, unknown>): boolean {
  const event = (body['event'] ?? body['type']) as WebhookEventName;
  return server.server.services.validator.validate(envelopeSchemaPointer(event), body).valid;
}

describe('the envelope of a subscription', () => {
  test('each subscription gets its chosen envelope, signed the same way and valid against the contract', async () => {
    const seed = await subscribe(seedReceiver, ['session.created', 'session.complete']);
    const published = await subscribe(publishedReceiver, ['session.created', 'session.complete'], 'published');
    expect(await getJson(server, `/v1/webhooks/${seed.id}`)).toMatchObject({ envelope: 'seed' });
    expect(await getJson(server, `/v1/webhooks/${published.id}`)).toMatchObject({ envelope: 'published' });

    const id = await startSession(server, lineupStart(1));
    await settle(server, 60_000);
    const about = (delivery: Delivery): boolean =>
      (bodyOf(delivery)['data'] as Record<string, unknown>)['session_id'] === id;
    await waitFor(
      () =>
        seedReceiver.deliveries.filter(about).length === 2 && publishedReceiver.deliveries.filter(about).length === 2,
    );
    await idle();

    const seedBodies = seedReceiver.deliveries.filter(about);
    expect(seedBodies.map((delivery) => bodyOf(delivery)['event'])).toEqual(['session.created', 'session.complete']);
    for (const delivery of seedBodies) {
      expect(Object.keys(bodyOf(delivery))).toEqual(['event', 'user_id', 'correlation_id', 'at', 'data']);
    }

    const publishedBodies = publishedReceiver.deliveries.filter(about);
    expect(publishedBodies.map((delivery) => bodyOf(delivery)['type'])).toEqual([
      'session.created',
      'session.complete',
    ]);
    for (const delivery of publishedBodies) {
      const body = bodyOf(delivery);
      expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'data', 'delivery_attempt', 'api_version']);
      expect(body).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        created_at: expect.stringMatching(/\.\d{3}Z$/),
        delivery_attempt: 1,
        api_version: '2026-10-01',
      });
      expect(delivery.headers['x-service-event']).toBe(body['type']);
      expect(
        verifyDelivery({
          secret: published.secret,
          rawBody: delivery.rawBody,
          headers: delivery.headers,
          now: server.wallClock.now(),
        }),
      ).toEqual({ ok: true });
    }
    expect(new Set(publishedBodies.map((delivery) => bodyOf(delivery)['id'])).size).toBe(2);
    // The same events, the same data: only the envelope differs.
    expect(publishedBodies.map((delivery) => bodyOf(delivery)['data'])).toEqual(
      seedBodies.map((delivery) => bodyOf(delivery)['data']),
    );
    for (const delivery of [...seedBodies, ...publishedBodies]) {
      expect(validAgainstItsWebhook(bodyOf(delivery))).toBe(true);
    }
    for (const subscription of [seed, published]) {
      await (await server.request(`/v1/webhooks/${subscription.id}`, { method: 'DELETE' })).arrayBuffer();
    }
  });

  test('a retry of a published-form delivery carries its attempt number and is signed anew', async () => {
    const { id, secret } = await subscribe(publishedReceiver, ['decision.captured'], 'published');
    publishedReceiver.deliveries.length = 0;
    publishedReceiver.answer(500, 200);
    const session = await startSession(server);
    await (
      await server.request(`/v1/sessions/${session}/decisions`, {
        method: 'POST',
        json: { decision: 'Ship the price rise in March.' },
      })
    ).arrayBuffer();
    await waitFor(() => publishedReceiver.deliveries.length === 1);
    await idle();
    await settle(server, 60_000);
    await waitFor(() => publishedReceiver.deliveries.length === 2);
    await idle();
    const [first, second] = publishedReceiver.deliveries.map((delivery) => ({ delivery, body: bodyOf(delivery) }));
    expect(first?.body['delivery_attempt']).toBe(1);
    expect(second?.body['delivery_attempt']).toBe(2);
    expect(second?.body['id']).toBe(first?.body['id']);
    expect(second?.delivery.headers['x-service-delivery-id']).toBe(first?.delivery.headers['x-service-delivery-id']);
    const withoutAttempt = ({
      delivery_attempt: _attempt,
      ...rest
    }: Record<string, unknown>): Record<string, unknown> => rest;
    expect(withoutAttempt(second?.body ?? {})).toEqual(withoutAttempt(first?.body ?? {}));
    for (const { delivery } of [first, second].flatMap((one) => (one === undefined ? [] : [one]))) {
      expect(
        verifyDelivery({ secret, rawBody: delivery.rawBody, headers: delivery.headers, now: server.wallClock.now() }),
      ).toEqual({ ok: true });
    }
    await (await server.request(`/v1/webhooks/${id}`, { method: 'DELETE' })).arrayBuffer();
  });

  test('an update switches the envelope; a server default applies to subscriptions that chose none', async () => {
    const { id } = await subscribe(seedReceiver, ['session.created']);
    const updated = await server.request(`/v1/webhooks/${id}`, { method: 'PATCH', json: { envelope: 'published' } });
    expect(await updated.json()).toMatchObject({ envelope: 'published' });
    const refused = await server.request(`/v1/webhooks/${id}`, { method: 'PATCH', json: { envelope: 'legacy' } });
    expect(refused.status).toBe(400);
    await refused.arrayBuffer();
    await (await server.request(`/v1/webhooks/${id}`, { method: 'DELETE' })).arrayBuffer();

    const other = await startTestServer({ webhookEnvelope: 'published' });
    try {
      const response = await other.request('/v1/webhooks', {
        method: 'POST',
        json: { label: 'Default', url: seedReceiver.url, events: ['session.created'] },
      });
      const created = (await response.json()) as { subscription: { id: string } };
      expect(await getJson(other, `/v1/webhooks/${created.subscription.id}`)).toMatchObject({ envelope: 'published' });
    } finally {
      await other.stop();
    }
  });
});
