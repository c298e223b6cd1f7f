/**
 * The deprecated per-key webhook URL (seed "Legacy per-key webhook (deprecated)"): configured on a key
 * with `legacyWebhooks` (`boardkit serve --legacy-webhook`), it hears `session.complete` only, and only for
 * sessions started with that key, signed over the body alone with the key's secret; a failed attempt is
 * retried on the server clock with the same delivery id. A real receiver checks each delivery with the
 * kit's exported verifier.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifyLegacyDelivery } from '../../src/index.js';
import { manualClock } from '../../src/server/core/clock.js';
import { configureLegacyWebhooks, parseLegacyWebhookFlags } from '../../src/server/domain/legacy-webhooks.js';
import {
  aWholeRun,
  advanceUntil,
  lineupStart,
  otherTestKey,
  settle,
  startSession,
  startTestServer,
  storedSession,
  testKey,
  type TestServer,
} from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

let server: TestServer;
let receiver: Receiver;
let secret: string;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ legacyWebhooks: [{ apiKey: testKey, url: receiver.url }] });
  const [configured] = server.server.legacyWebhooks;
  expect(configured).toMatchObject({
    keyHint: `sk_test_...${testKey.slice(-4)}`,
    url: receiver.url,
    secretIsNew: true,
  });
  secret = configured?.secret ?? '';
});

afterAll(async () => {
  await server.stop();
  await receiver.close();
});

describe('deliveries', () => {
  test('a session started with the key gets session.complete, signed over the body with the key secret', async () => {
    receiver.deliveries.length = 0;
    const mine = await startSession(server, lineupStart(1));
    const theirs = await startSession(server, lineupStart(1));
    await (
      await server.request('/v1/sessions', { method: 'POST', key: otherTestKey, json: lineupStart(1) })
    ).arrayBuffer();
    await (
      await server.request(`/v1/sessions/${mine}/shares`, { method: 'POST', json: { access: 'public' } })
    ).arrayBuffer();
    server.clock.advance(aWholeRun);
    await settle(server, 1_000);

    expect(receiver.deliveries.map((delivery) => delivery.body.data['session_id']).sort()).toEqual(
      [mine, theirs].sort(),
    );
    for (const delivery of receiver.deliveries) {
      expect(delivery.headers).toMatchObject({
        'x-mcp-event': 'session.complete',
        'x-mcp-delivery-id': expect.stringMatching(/^dlv_/),
        'x-mcp-timestamp': expect.stringMatching(/^\d+$/),
        'content-type': 'application/json',
      });
      expect(Object.keys(delivery.headers).filter((name) => name.startsWith('x-service-'))).toEqual([]);
      expect(verifyLegacyDelivery({ secret, rawBody: delivery.rawBody, headers: delivery.headers })).toEqual({
        ok: true,
      });
      expect(
        verifyLegacyDelivery({
          secret: 'whsec_someoneelse0000000000000000',
          rawBody: delivery.rawBody,
          headers: delivery.headers,
        }),
      ).toMatchObject({ ok: false, status: 401 });
      const valid = server.server.services.validator.validate(
        '#/webhooks/legacy.session.complete/post/requestBody/content/application~1json/schema',
        delivery.body,
      );
      expect(valid.errors ?? []).toEqual([]);
      expect(delivery.body).toMatchObject({
        event: 'session.complete',
        data: { verdict: expect.any(String), credits_charged: expect.any(Number) },
      });
    }
  });

  test('a failed attempt is retried after a minute of server time with the same delivery id', async () => {
    receiver.deliveries.length = 0;
    receiver.answer(500, 200);
    const id = await startSession(server, lineupStart(1));
    // Small steps, so that the first attempt is made about when the session completes.
    advanceUntil(server, () => storedSession(server, id).v4_phase === 'done');
    await server.server.services.webhooks.dispatcher.idle();
    expect(receiver.deliveries).toHaveLength(1);
    await settle(server, 59_000, 59_000);
    expect(receiver.deliveries).toHaveLength(1);
    await settle(server, 1_000);
    expect(receiver.deliveries).toHaveLength(2);
    const [first, retry] = receiver.deliveries;
    expect(retry?.headers['x-mcp-delivery-id']).toBe(first?.headers['x-mcp-delivery-id']);
    expect(retry?.body.data['session_id']).toBe(id);
    expect(verifyLegacyDelivery({ secret, rawBody: retry?.rawBody ?? '', headers: retry?.headers ?? {} })).toEqual({
      ok: true,
    });
  });
});

describe('configuration', () => {
  test('stays in the store: a restart without it keeps delivering, signed with the same secret', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'boardkit-legacy-'));
    const dbFile = join(folder, 'board.db');
    const hook = await startReceiver();
    try {
      const before = await startTestServer({ dbFile, legacyWebhooks: [{ apiKey: testKey, url: hook.url }] });
      const first = before.server.legacyWebhooks[0]?.secret ?? '';
      const stoppedAt = before.clock.now();
      await before.stop();
      const after = await startTestServer({ dbFile, clock: manualClock(stoppedAt) });
      try {
        expect(after.server.legacyWebhooks).toEqual([]);
        const id = await startSession(after, lineupStart(1));
        advanceUntil(after, () => storedSession(after, id).v4_phase === 'done');
        await settle(after, 0);
        await after.server.services.webhooks.dispatcher.idle();
        expect(hook.deliveries.map((delivery) => delivery.body.data['session_id'])).toEqual([id]);
        const [delivery] = hook.deliveries;
        expect(
          verifyLegacyDelivery({ secret: first, rawBody: delivery?.rawBody ?? '', headers: delivery?.headers ?? {} }),
        ).toEqual({ ok: true });
      } finally {
        await after.stop();
      }
    } finally {
      await hook.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('a key keeps its secret when its URL changes, unless another secret is given', () => {
    const { store, webhooks } = server.server.services;
    const [moved] = configureLegacyWebhooks(store, webhooks.outbox, [{ apiKey: testKey, url: receiver.url }]);
    expect(moved).toMatchObject({ secret, secretIsNew: false });
    const chosen = 'whsec_chosenForTheTest0000000001';
    expect(
      configureLegacyWebhooks(store, webhooks.outbox, [{ apiKey: testKey, url: receiver.url, secret: chosen }]),
    ).toEqual([expect.objectContaining({ secret: chosen, secretIsNew: true })]);
    configureLegacyWebhooks(store, webhooks.outbox, [{ apiKey: testKey, url: receiver.url, secret }]);
    expect(() =>
      configureLegacyWebhooks(store, webhooks.outbox, [{ apiKey: 'sk_test_unknownkey0000', url: receiver.url }]),
    ).toThrow(/not one this server has/);
    expect(() =>
      configureLegacyWebhooks(store, webhooks.outbox, [{ apiKey: testKey, url: 'ftp://example.com/in' }]),
    ).toThrow(/http or https/);
    expect(() =>
      configureLegacyWebhooks(store, webhooks.outbox, [{ apiKey: testKey, url: receiver.url, secret: 'hunter2' }]),
    ).toThrow(/whsec_/);
    // A refused setting leaves the other settings of the same start unsaved too.
    const batch = [
      { apiKey: otherTestKey, url: receiver.url },
      { apiKey: testKey, url: 'ftp://example.com/in' },
    ];
    expect(() => configureLegacyWebhooks(store, webhooks.outbox, batch)).toThrow(/http or https/);
    const otherKey = store.apiKeys.lookup(otherTestKey);
    expect(otherKey).toBeDefined();
    expect(webhooks.outbox.getTarget(otherKey?.id ?? '')).toBeUndefined();
  });

  test('--legacy-webhook takes KEY=URL, or a bare URL when exactly one key is given', () => {
    const url = 'https://hooks.example.com/legacy?a=b';
    expect(parseLegacyWebhookFlags([`${testKey}=${url}`], [testKey, otherTestKey])).toEqual([{ apiKey: testKey, url }]);
    expect(parseLegacyWebhookFlags([url], [otherTestKey])).toEqual([{ apiKey: otherTestKey, url }]);
    expect(() => parseLegacyWebhookFlags([url], [testKey, otherTestKey])).toThrow(/KEY=URL/);
    expect(() => parseLegacyWebhookFlags([url], [])).toThrow(/exactly one --api-key/);
  });
});
