/**
 * One workspace must not degrade another (docs/reliability.md "A noisy neighbour"): beside a workspace
 * whose receivers accept the connection and never answer, another workspace's delivery arrives at once,
 * and no delivery of either is lost. Against the reference server with its clock in the test's hands; the
 * figures are printed for the docs.
 */
import { createServer, type ServerResponse } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { lineupStart, startSession, startTestServer, waitFor, type TestServer } from '../server/harness.js';
import { startReceiver, type Receiver } from '../server/receiver.js';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) {
    await stop();
  }
});

/** A receiver that holds every request open, unanswered, until `revive()`; then it accepts them all. */
async function deadReceiver() {
  const held: ServerResponse[] = [];
  const accepted = new Set<string>();
  let alive = false;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['x-service-delivery-id']);
      if (alive) {
        accepted.add(id);
        response.writeHead(200).end();
      } else {
        held.push(response);
        response.once('close', () => held.splice(held.indexOf(response), 1));
        response.once('finish', () => accepted.add(id));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  stops.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: (path: string) => `http://127.0.0.1:${port}/${path}`,
    held,
    accepted,
    revive() {
      alive = true;
      [...held].forEach((response) => response.writeHead(200).end());
    },
  };
}

async function subscribe(server: TestServer, key: string, url: string): Promise<void> {
  const response = await server.request('/v1/webhooks', {
    method: 'POST',
    key,
    json: { label: 'Neighbour', url, events: ['session.created'] },
  });
  expect(response.status).toBe(201);
}

test('beside a workspace of dead receivers, another workspace gets its delivery at once, and none is lost', async () => {
  const server = await startTestServer();
  stops.push(() => server.stop());
  const dead = await deadReceiver();
  const healthy: Receiver = await startReceiver();
  stops.push(() => healthy.close());
  // Workspace A: 8 subscriptions to receivers that never answer, then 4 sessions: 32 deliveries.
  for (let n = 1; n <= 8; n += 1) {
    await subscribe(server, server.key, dead.url(`a${n}`));
  }
  await subscribe(server, server.otherKey, healthy.url);
  for (let n = 0; n < 4; n += 1) {
    await startSession(server, lineupStart(1, { title: `Noisy ${n}` }));
  }
  await waitFor(() => dead.held.length === 8);

  // Workspace B starts a session while A's attempts hang: its delivery does not wait for them.
  const sentAt = performance.now();
  const started = await server.request('/v1/sessions', { method: 'POST', key: server.otherKey, json: lineupStart(1) });
  expect(started.status).toBe(202);
  await waitFor(() => healthy.deliveries.length === 1, 5_000);
  const waitedMs = performance.now() - sentAt;
  console.log(
    `noisy neighbour: B's delivery arrived after ${waitedMs.toFixed(0)} ms of real time; A held ${dead.held.length} attempts open`,
  );
  // A correctness bound, not a benchmark: before, B waited for A's attempts to time out (10 s each).
  expect(waitedMs).toBeLessThan(1_000);
  // A holds no more than its share of the slots.
  expect(dead.held.length).toBe(8);

  // A's receivers come back: every one of A's 32 deliveries is accepted, once each, none lost.
  dead.revive();
  await waitFor(() => dead.accepted.size === 32, 10_000);
  await server.server.services.webhooks.dispatcher.idle();
  expect(dead.accepted.size).toBe(32);
  expect(healthy.deliveries.map((delivery) => delivery.body.event)).toEqual(['session.created']);
});

test('a workspace holds at most 50 webhook subscriptions; the 51st is a 409 conflict', async () => {
  const server = await startTestServer();
  stops.push(() => server.stop());
  for (let n = 0; n < 50; n += 1) {
    await subscribe(server, server.key, `https://hooks.example.com/${n}`);
  }
  const refused = await server.request('/v1/webhooks', {
    method: 'POST',
    json: { label: 'One too many', url: 'https://hooks.example.com/51', events: ['session.created'] },
  });
  expect(refused.status).toBe(409);
  expect(refused.headers.get('content-type')).toContain('application/problem+json');
  expect(((await refused.json()) as { detail: string }).detail).toMatch(/50 webhook subscriptions/);
  // Another workspace is not affected.
  await subscribe(server, server.otherKey, 'https://hooks.example.com/other');
});
