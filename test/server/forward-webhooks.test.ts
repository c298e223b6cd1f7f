/**
 * `boardkit serve --forward-webhooks <url>`: every event of every workspace also reaches one local URL,
 * signed with the forwarding secret, and the signature timestamp is the wall clock even when simulated
 * time runs 1000 times faster (a receiver following docs/webhooks.md refuses anything 300 s off its clock).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifyDelivery } from '../../src/index.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { forwardTargetId } from '../../src/server/domain/forward-webhooks.js';
import { lineupStart, otherTestKey, testKey, waitFor } from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

let receiver: Receiver;
let server: RunningServer;
const errors: unknown[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startServer({
    db: ':memory:',
    apiKeys: [testKey, otherTestKey],
    timeScale: 1000,
    validateResponses: true,
    forwardWebhooks: { url: receiver.url },
    onError: (error) => errors.push(error),
  });
});

afterAll(async () => {
  await server.close();
  await receiver.close();
  expect(errors).toEqual([]);
  expect(server.violations).toEqual([]);
});

async function start(key: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(lineupStart(1)),
  });
  const body = (await response.json()) as { id: string };
  expect(response.status).toBe(202);
  return body.id;
}

function deliveriesOf(sessionId: string): Receiver['deliveries'] {
  return receiver.deliveries.filter((delivery) => delivery.body.data['session_id'] === sessionId);
}

describe('forwarding', () => {
  test('the events of every workspace are forwarded, without a subscription, and verify on the wall clock', async () => {
    const forwarding = server.forwarding;
    expect(forwarding?.url).toBe(receiver.url);
    expect(forwarding?.secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    const mine = await start(testKey);
    await waitFor(() => deliveriesOf(mine).some((delivery) => delivery.body.event === 'session.complete'), 30_000);
    // Simulated time is now well past the replay window ahead of the wall clock...
    await waitFor(() => server.services.clock.now() - Date.now() > 301_000, 10_000);
    const theirs = await start(otherTestKey);
    await waitFor(() => deliveriesOf(theirs).length > 0, 10_000);
    const forwarded = [...deliveriesOf(mine), ...deliveriesOf(theirs)];
    expect(forwarded.map((delivery) => delivery.body.event)).toEqual([
      'session.created',
      'session.complete',
      'session.created',
    ]);
    for (const delivery of forwarded) {
      // ...and still every delivery verifies against this process's own clock.
      expect(
        verifyDelivery({ secret: forwarding?.secret ?? '', rawBody: delivery.rawBody, headers: delivery.headers }),
      ).toEqual({ ok: true });
      expect(Math.abs(Number(delivery.headers['x-service-timestamp']) * 1000 - Date.now())).toBeLessThan(60_000);
    }
    expect(server.services.webhooks.outbox.getTarget(forwardTargetId)?.events).toContain('decision.captured');
  });

  test('a forwarding URL that is not a loopback address is refused before the server starts', async () => {
    await expect(startServer({ db: ':memory:', forwardWebhooks: { url: 'http://192.0.2.1/hooks' } })).rejects.toThrow(
      /forwarding goes to a loopback address only/,
    );
    await expect(
      startServer({ db: ':memory:', forwardWebhooks: { url: receiver.url, secret: 'nope' } }),
    ).rejects.toThrow(/--forward-secret/);
  });
});
