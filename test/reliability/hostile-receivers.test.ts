/**
 * Hostile webhook receivers (docs/reliability.md "Hostile webhook receivers"): endpoints that hang, reset
 * the connection, answer 500, redirect, or trickle their answer a byte at a time. Against the reference
 * server with its clock in the test's hands: the dispatcher keeps the retry schedule (seed "Delivery, retry
 * and pause": the retry after 1 minute comes at 1 minute) for every receiver, a receiver that holds its
 * attempts open delays no other receiver's delivery or retry, and its memory stays flat over hundreds of
 * hostile deliveries (figures in docs/reliability.md).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import type { AttemptRecord } from '../../src/webhooks/outbox.js';
import { lineupStart, startSession, startTestServer, waitFor, type TestServer } from '../server/harness.js';
import { heapAfterCollection } from './heap.js';

type Behaviour = (request: IncomingMessage, response: ServerResponse, attempt: number) => void;

interface Hostile {
  url: string;
  /** Attempts received, per delivery id, in order of arrival. */
  attempts: string[];
  close(): Promise<void>;
}

const open: Hostile[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((receiver) => receiver.close()));
});

/** A receiver on 127.0.0.1 that treats the n-th attempt of each delivery as `behaviour` says. */
async function receiver(behaviour: Behaviour): Promise<Hostile> {
  const attempts: string[] = [];
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['x-service-delivery-id']);
      attempts.push(id);
      behaviour(request, response, attempts.filter((seen) => seen === id).length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const hostile: Hostile = {
    url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/hooks`,
    attempts,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.push(hostile);
  return hostile;
}

const behaviours = {
  ok: ((_, response) => response.writeHead(200).end()) as Behaviour,
  /** Fails the first attempt of each delivery, then accepts. */
  failsOnce: ((_, response, attempt) => response.writeHead(attempt === 1 ? 500 : 200).end()) as Behaviour,
  /** Never answers. */
  hangs: (() => undefined) as Behaviour,
  resets: ((request) => request.socket.destroy()) as Behaviour,
  fails: ((_, response) => response.writeHead(500).end()) as Behaviour,
  redirects: ((_, response) =>
    response.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end()) as Behaviour,
  /** Sends its head, then one byte of body every 200 ms, without end. */
  trickles: ((_, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    const timer = setInterval(() => response.write('.'), 200);
    response.on('close', () => clearInterval(timer));
  }) as Behaviour,
};

async function subscribe(server: TestServer, url: string, label: string): Promise<string> {
  const response = await server.request('/v1/webhooks', {
    method: 'POST',
    json: { label, url, events: ['session.created'] },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { subscription: { id: string } }).subscription.id;
}

function attemptsOf(server: TestServer, subscriptionId: string): AttemptRecord[] {
  return server.server.services.webhooks.outbox.listAttempts(subscriptionId).reverse();
}

test('hanging, resetting, failing, redirecting and trickling receivers delay no other, and retries keep their schedule', async () => {
  const server = await startTestServer();
  const [healthy, flaky, hangs, resets, fails, redirects, trickles] = await Promise.all(
    [
      behaviours.ok,
      behaviours.failsOnce,
      behaviours.hangs,
      behaviours.resets,
      behaviours.fails,
      behaviours.redirects,
      behaviours.trickles,
    ].map(receiver),
  );
  const ids = {
    healthy: await subscribe(server, (healthy as Hostile).url, 'healthy'),
    flaky: await subscribe(server, (flaky as Hostile).url, 'flaky'),
    hangs: await subscribe(server, (hangs as Hostile).url, 'hangs'),
    resets: await subscribe(server, (resets as Hostile).url, 'resets'),
    fails: await subscribe(server, (fails as Hostile).url, 'fails'),
    redirects: await subscribe(server, (redirects as Hostile).url, 'redirects'),
    trickles: await subscribe(server, (trickles as Hostile).url, 'trickles'),
  };
  try {
    // Three events: the receivers that hold attempts open take two each (their limit) and queue the third.
    const startedAt = server.clock.now();
    for (let n = 0; n < 3; n += 1) {
      await startSession(server, lineupStart(1, { title: `Hostile receivers ${n}` }));
    }
    await waitFor(() => attemptsOf(server, ids.healthy).length === 3 && attemptsOf(server, ids.flaky).length === 3);
    await waitFor(() => [ids.resets, ids.fails, ids.redirects].every((id) => attemptsOf(server, id).length === 3));
    await waitFor(() => hangs?.attempts.length === 2 && trickles?.attempts.length === 2);
    expect(attemptsOf(server, ids.healthy).map((attempt) => attempt.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    expect(attemptsOf(server, ids.flaky).map((attempt) => attempt.status)).toEqual([
      'retry_scheduled',
      'retry_scheduled',
      'retry_scheduled',
    ]);
    for (const id of [ids.resets, ids.fails, ids.redirects]) {
      expect(attemptsOf(server, id).map((attempt) => [attempt.status, attempt.attemptedAt])).toEqual(
        Array(3).fill(['retry_scheduled', startedAt]),
      );
    }
    expect(attemptsOf(server, ids.redirects)[0]?.error).toMatch(/redirects are not followed/);

    // A minute later every retry comes, at its time, while two receivers still hold their attempts open.
    server.clock.advance(60_000);
    await waitFor(() => attemptsOf(server, ids.flaky).length === 6);
    expect(
      attemptsOf(server, ids.flaky)
        .slice(3)
        .map((attempt) => [attempt.status, attempt.attempt, attempt.attemptedAt]),
    ).toEqual(Array(3).fill(['succeeded', 2, startedAt + 60_000]));
    await waitFor(() => [ids.resets, ids.fails, ids.redirects].every((id) => attemptsOf(server, id).length === 6));
    for (const id of [ids.resets, ids.fails, ids.redirects]) {
      expect(
        attemptsOf(server, id)
          .slice(3)
          .map((attempt) => [attempt.attempt, attempt.attemptedAt]),
      ).toEqual(Array(3).fill([2, startedAt + 60_000]));
    }
    // Then at 5 more minutes, and so on: the schedule holds for the receivers that keep failing.
    server.clock.advance(5 * 60_000);
    await waitFor(() => [ids.resets, ids.fails, ids.redirects].every((id) => attemptsOf(server, id).length === 9));
    for (const id of [ids.resets, ids.fails, ids.redirects]) {
      expect(
        attemptsOf(server, id)
          .slice(6)
          .map((attempt) => [attempt.attempt, attempt.attemptedAt]),
      ).toEqual(Array(3).fill([3, startedAt + 6 * 60_000]));
    }
    expect(hangs?.attempts).toHaveLength(2);
    expect(trickles?.attempts).toHaveLength(2);
  } finally {
    // Closing the receivers ends the attempts they held, so the server stops at once.
    await Promise.all(open.splice(0).map((hostile) => hostile.close()));
    await server.stop();
  }
});

test('memory stays flat over hundreds of deliveries to hostile receivers', async () => {
  const server = await startTestServer();
  /** Answers 500 (then 200 on the retry) a byte at a time over 25 ms. */
  const slowAnswer: Behaviour = (_, response, attempt) => {
    response.writeHead(attempt > 1 ? 200 : 500);
    let left = 5;
    const timer = setInterval(() => (--left > 0 ? response.write('.') : (clearInterval(timer), response.end())), 5);
  };
  // Each delivery meets one hostile answer, then is accepted on its retry, so that no subscription pauses.
  const failOnce =
    (behaviour: Behaviour): Behaviour =>
    (request, response, attempt) =>
      attempt > 1 ? response.writeHead(200).end() : behaviour(request, response, attempt);
  const hostile = await Promise.all(
    [failOnce(behaviours.resets), failOnce(behaviours.fails), failOnce(behaviours.redirects), slowAnswer].map(receiver),
  );
  const subscriptions = await Promise.all(
    hostile.map((target, index) => subscribe(server, target.url, `hostile ${index}`)),
  );
  const { webhooks, store } = server.server.services;
  const workspace = store.workspaces.get(store.apiKeys.lookup(server.key)?.workspaceId ?? '');
  if (workspace === undefined) {
    throw new Error('no workspace for the test key');
  }
  const pending = (): number =>
    store.db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'").get()
      ?.n ?? 0;

  const rounds = 3;
  const perRound = 40;
  const heap: number[] = [];
  try {
    for (let round = 0; round < rounds; round += 1) {
      for (let n = 0; n < perRound; n += 1) {
        webhooks.emit(workspace, 'session.created', {
          session_id: `ses_memory${round}x${n}`,
          session_type: 'boardroom',
          mode: 'boardroom',
          synths: ['cfo', 'skeptic'],
          estimated_cost_credits: 10,
        });
      }
      // Each round is one first attempt and one retry per delivery.
      await waitFor(() => hostile.every((target) => target.attempts.length === (2 * round + 1) * perRound), 30_000);
      await webhooks.dispatcher.idle();
      server.clock.advance(60_000);
      await waitFor(() => pending() === 0, 30_000);
      await webhooks.dispatcher.idle();
      expect(hostile.map((target) => target.attempts.length)).toEqual(
        Array(hostile.length).fill(2 * (round + 1) * perRound),
      );
      heap.push(heapAfterCollection());
    }
    for (const id of subscriptions) {
      const statuses = attemptsOf(server, id).map((attempt) => attempt.status);
      expect(statuses).toHaveLength(Math.min(100, 2 * rounds * perRound));
      expect(new Set(statuses)).toEqual(new Set(['retry_scheduled', 'succeeded']));
    }
    const deliveries = rounds * perRound * hostile.length;
    const growth = (heap.at(-1) ?? 0) - (heap[0] ?? 0);
    console.log(
      `hostile receivers: ${deliveries} deliveries, ${deliveries * 2} attempts; heap after each round ` +
        `${heap.map((bytes) => (bytes / 2 ** 20).toFixed(1)).join(', ')} MiB; growth from round 1 to ${rounds} ` +
        `${(growth / 2 ** 10).toFixed(0)} KiB (${(growth / (deliveries - perRound * hostile.length)).toFixed(0)} bytes per delivery)`,
    );
    // A generous bound: a leak of a socket, timer or record per attempt would cross it many times over.
    expect(growth).toBeLessThan(16 * 2 ** 20);
  } finally {
    await Promise.all(open.splice(0).map((target) => target.close()));
    await server.stop();
  }
});
