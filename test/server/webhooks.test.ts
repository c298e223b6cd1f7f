/**
 * Webhook subscriptions and deliveries (seed "Webhook subscriptions", "Delivery, retry and pause"):
 * signed deliveries to a real receiver, retries on the server clock, the attempts listing, the breaker
 * after 10 failed deliveries and re-enabling, the URL guard, and workspaces kept apart.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifyDelivery } from '../../src/webhooks/signing.js';
import {
  getJson,
  lineupStart,
  settle as settleServer,
  startSession,
  startTestServer,
  waitFor,
  type TestServer,
} from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

let server: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
});

afterAll(async () => {
  await server.stop();
  await receiver.close();
});

interface Created {
  ok: boolean;
  subscription: { id: string; label: string };
  signing_secret: string;
}

async function subscribe(events: string[], key?: string, path = '/v1/webhooks'): Promise<Created> {
  const response = await server.request(path, {
    method: 'POST',
    json: { label: 'Test receiver', url: receiver.url, events },
    ...(key === undefined ? {} : { key }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Created;
}

const idle = (): Promise<void> => server.server.services.webhooks.dispatcher.idle();

const settle = (ms: number, stepMs?: number): Promise<void> => settleServer(server, ms, stepMs);

describe('subscriptions', () => {
  test('create returns the signing secret once; read, list, update and delete; the unversioned path is the same', async () => {
    const response = await server.request('/webhooks', {
      method: 'POST',
      json: { label: 'Ops', url: receiver.url, events: ['session.complete'] },
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as Created & { verify_instructions: string };
    expect(created).toMatchObject({
      ok: true,
      subscription: { label: 'Ops' },
      signing_secret: expect.stringMatching(/^whsec_/),
    });
    expect(response.headers.get('location')).toBe(`/v1/webhooks/${created.subscription.id}`);
    const id = created.subscription.id;
    const read = await getJson<Record<string, unknown>>(server, `/v1/webhooks/${id}`);
    expect(read).toMatchObject({
      id,
      status: 'active',
      consecutive_failures: 0,
      paused_at: null,
      events: ['session.complete'],
      retry_schedule: { waits_minutes: [1, 5, 15, 60] },
    });
    expect(JSON.stringify(read)).not.toContain(created.signing_secret);
    expect(
      (await getJson<{ items: Array<{ id: string }> }>(server, '/webhooks')).items.map((item) => item.id),
    ).toContain(id);
    const updated = await server.request(`/webhooks/${id}`, {
      method: 'PATCH',
      json: { label: 'Ops (renamed)', events: ['session.failed'] },
    });
    expect(await updated.json()).toMatchObject({
      label: 'Ops (renamed)',
      events: ['session.failed'],
      url: receiver.url,
    });
    expect((await server.request(`/v1/webhooks/${id}`, { method: 'DELETE' })).status).toBe(204);
    const gone = await server.request(`/v1/webhooks/${id}`);
    expect(gone.status).toBe(404);
    await gone.arrayBuffer();
  });

  test("another workspace's subscription is 404", async () => {
    const { subscription } = await subscribe(['session.created']);
    const response = await server.request(`/v1/webhooks/${subscription.id}`, { key: server.otherKey });
    expect(response.status).toBe(404);
    await response.arrayBuffer();
    await (await server.request(`/v1/webhooks/${subscription.id}`, { method: 'DELETE' })).arrayBuffer();
  });

  test('enabling an active subscription is a conflict', async () => {
    const { subscription } = await subscribe(['session.created']);
    const response = await server.request(`/v1/webhooks/${subscription.id}/enable`, { method: 'POST' });
    expect(response.status).toBe(409);
    await response.arrayBuffer();
    await (await server.request(`/v1/webhooks/${subscription.id}`, { method: 'DELETE' })).arrayBuffer();
  });
});

describe('deliveries', () => {
  test('events of the workspace are delivered signed, with the envelope of the seed', async () => {
    const { subscription, signing_secret: secret } = await subscribe(['session.created', 'session.complete']);
    receiver.deliveries.length = 0;
    receiver.answer(200);
    // Another workspace's events never reach this subscription.
    await startSession(server, { ...lineupStart(), title: 'Not ours' });
    const theirs = await server.request('/v1/sessions', { method: 'POST', json: lineupStart(), key: server.otherKey });
    await theirs.arrayBuffer();
    const id = await startSession(server, lineupStart(1));
    await settle(60_000);
    await waitFor(() => receiver.deliveries.filter((delivery) => delivery.body.data['session_id'] === id).length === 2);
    await idle();
    const mine = receiver.deliveries.filter((delivery) => delivery.body.data['session_id'] === id);
    expect(mine.map((delivery) => delivery.body.event)).toEqual(['session.created', 'session.complete']);
    for (const delivery of mine) {
      expect(
        verifyDelivery({ secret, rawBody: delivery.rawBody, headers: delivery.headers, now: server.wallClock.now() }),
      ).toEqual({ ok: true });
      expect(delivery.headers['x-service-event']).toBe(delivery.body.event);
      expect(delivery.headers['x-service-delivery-id']).toMatch(/^dlv_/);
      expect(delivery.headers['user-agent']).toBe('Service-Webhooks/1.0');
      expect(delivery.body).toMatchObject({
        user_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        correlation_id: expect.stringMatching(/^corr_/),
        at: expect.stringMatching(/\.\d{3}Z$/),
      });
    }
    expect(mine[1]?.body.data).toMatchObject({
      verdict: expect.any(String),
      credits_charged: 10,
      session_url: `${server.baseUrl}/v1/sessions/${id}`,
    });
    expect(receiver.deliveries.every((delivery) => delivery.body.data['session_id'] !== undefined)).toBe(true);
    expect(receiver.deliveries.filter((delivery) => delivery.body.event === 'session.created')).toHaveLength(2);
    await (await server.request(`/v1/webhooks/${subscription.id}`, { method: 'DELETE' })).arrayBuffer();
  });

  test('a failed attempt is retried after a minute of server time; the attempts are listed newest first', async () => {
    const { subscription } = await subscribe(['decision.captured']);
    receiver.deliveries.length = 0;
    receiver.answer(500, 200);
    const session = await startSession(server);
    await (
      await server.request(`/v1/sessions/${session}/decisions`, {
        method: 'POST',
        json: { decision: 'Ship the price rise in March.' },
      })
    ).arrayBuffer();
    await waitFor(() => receiver.deliveries.length === 1);
    await idle();
    await settle(59_000);
    expect(receiver.deliveries).toHaveLength(1);
    await settle(1_000);
    await waitFor(() => receiver.deliveries.length === 2);
    await idle();
    const [first, second] = receiver.deliveries;
    expect(second?.headers['x-service-delivery-id']).toBe(first?.headers['x-service-delivery-id']);
    const attempts = await getJson<{ items: Array<Record<string, unknown>> }>(
      server,
      `/v1/webhooks/${subscription.id}/deliveries`,
    );
    expect(attempts.items.map((attempt) => [attempt['attempt'], attempt['status'], attempt['response_code']])).toEqual([
      [2, 'succeeded', 200],
      [1, 'retry_scheduled', 500],
    ]);
    expect(attempts.items[1]?.['next_retry_at']).toEqual(attempts.items[0]?.['attempted_at']);
    await (await server.request(`/v1/webhooks/${subscription.id}`, { method: 'DELETE' })).arrayBuffer();
  });

  test('after 10 failed deliveries the subscription pauses; enabling resets the breaker', async () => {
    const { subscription } = await subscribe(['decision.captured']);
    receiver.answer(503);
    const session = await startSession(server);
    for (let index = 0; index < 10; index += 1) {
      await (
        await server.request(`/v1/sessions/${session}/decisions`, {
          method: 'POST',
          json: { decision: `Option ${index}` },
        })
      ).arrayBuffer();
    }
    await idle();
    await settle(81 * 60_000, 30_000);
    const paused = await getJson<Record<string, unknown>>(server, `/v1/webhooks/${subscription.id}`);
    expect(paused).toMatchObject({ status: 'paused', consecutive_failures: 10, paused_at: expect.any(String) });
    const attempts = await getJson<{ items: Array<{ status: string }> }>(
      server,
      `/v1/webhooks/${subscription.id}/deliveries?limit=100`,
    );
    expect(attempts.items.filter((attempt) => attempt.status === 'exhausted')).toHaveLength(10);
    expect(attempts.items).toHaveLength(50);
    const enabled = await server.request(`/v1/webhooks/${subscription.id}/enable`, { method: 'POST' });
    expect(await enabled.json()).toMatchObject({ status: 'active', consecutive_failures: 0, paused_at: null });
    await (await server.request(`/v1/webhooks/${subscription.id}`, { method: 'DELETE' })).arrayBuffer();
  });
});

describe('the URL guard', () => {
  test('a loopback URL, or one no connection can use, is accepted, and every attempt to it fails without connecting', async () => {
    const guarded = await startTestServer({ allowPrivateWebhookUrls: false });
    const inside = await startReceiver();
    try {
      const refusals = {
        [inside.url]: /127\.0\.0\.1 is a loopback address/,
        'http://hooks.example.com:99999/in': /not an absolute URL/,
      };
      const ids = new Map<string, RegExp>();
      for (const [url, reason] of Object.entries(refusals)) {
        const response = await guarded.request('/v1/webhooks', {
          method: 'POST',
          json: { label: 'Unusable', url, events: ['session.created'] },
        });
        expect(response.status).toBe(201);
        ids.set(((await response.json()) as Created).subscription.id, reason);
      }
      await startSession(guarded);
      await guarded.server.services.webhooks.dispatcher.idle();
      for (const [id, reason] of ids) {
        const attempts = await getJson<{ items: Array<Record<string, unknown>> }>(
          guarded,
          `/v1/webhooks/${id}/deliveries`,
        );
        expect(attempts.items).toEqual([
          expect.objectContaining({
            event: 'session.created',
            response_code: null,
            status: 'retry_scheduled',
            error: expect.stringMatching(reason),
          }),
        ]);
      }
      expect(inside.deliveries).toEqual([]);
    } finally {
      await inside.close();
      await guarded.stop();
    }
  });
});

describe('hosts that do not resolve', () => {
  test('are accepted at creation: each delivery resolves the host again', async () => {
    const response = await server.request('/v1/webhooks', {
      method: 'POST',
      json: {
        label: 'Later',
        url: 'https://hooks.acme-analytics.example/decision-board',
        events: ['session.complete'],
      },
    });
    expect(response.status).toBe(201);
    const { subscription } = (await response.json()) as Created;
    await (await server.request(`/v1/webhooks/${subscription.id}`, { method: 'DELETE' })).arrayBuffer();
  });
});
