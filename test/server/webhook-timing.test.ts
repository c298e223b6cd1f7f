/**
 * Webhook timing at a high time scale: the waits between retries run on the sped-up server clock, but an
 * attempt lasts real time, so its timeout and the lease on its delivery are measured in real time. A
 * receiver that takes longer than a whole simulated year to answer (a fraction of a real second here) is
 * neither timed out nor sent the delivery a second time.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { lineupStart, testKey, waitFor } from './harness.js';

/** One real millisecond is about 11.6 simulated days. */
const timeScale = 1_000_000_000;
const simulatedYear = 365 * 24 * 60 * 60_000;

let server: RunningServer;
let receiver: Server;
let receiverUrl = '';
const received: IncomingMessage[] = [];
let answer: (() => void) | undefined;

beforeAll(async () => {
  server = await startServer({ apiKeys: [testKey], timeScale, allowPrivateWebhookUrls: true, validateResponses: true });
  // A receiver that holds its answer until the test releases it.
  receiver = createServer((request, response) => {
    received.push(request);
    request.resume();
    request.on('end', () => {
      answer = () => response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/hooks`;
});

afterAll(async () => {
  await server.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  expect(server.violations).toEqual([]);
});

function call(path: string, init: { method?: string; json?: unknown } = {}): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${testKey}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
}

test('a slow receiver at a high time scale is neither timed out nor sent the delivery twice', async () => {
  const created = await call('/v1/webhooks', {
    method: 'POST',
    json: { label: 'Slow', url: receiverUrl, events: ['session.created'] },
  });
  expect(created.status).toBe(201);
  const { subscription } = (await created.json()) as { subscription: { id: string } };
  const started = await call('/v1/sessions', { method: 'POST', json: lineupStart() });
  expect(started.status).toBe(202);
  await started.arrayBuffer();

  await waitFor(() => answer !== undefined);
  // Two simulated years pass while the receiver holds its answer: ten seconds of simulated time and a
  // lease of any simulated length would both have run out many times over.
  const heldSince = server.services.clock.now();
  await waitFor(() => server.services.clock.now() - heldSince > 2 * simulatedYear);
  expect(received).toHaveLength(1);
  answer?.();

  const attempts = async () => {
    const response = await call(`/v1/webhooks/${subscription.id}/deliveries`);
    return ((await response.json()) as { items: Array<Record<string, unknown>> }).items;
  };
  await waitFor(() => server.services.webhooks.outbox.listAttempts(subscription.id).length === 1);
  await server.services.webhooks.dispatcher.idle();
  const [attempt] = await attempts();
  expect(attempt).toMatchObject({ attempt: 1, status: 'succeeded', response_code: 200, error: null });
  expect(received).toHaveLength(1);
  expect(server.services.webhooks.outbox.nextLeaseExpiry()).toBeUndefined();
});
