/**
 * The client controls' reset over real HTTP: a plain reset empties the journal and the queued faults and
 * keeps the data; `reset({ data: true })` also drops every record made since the start (sessions,
 * webhook subscriptions, idempotency records, credit movements, rate-limit counts) and keeps what the
 * start provisioned.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../../src/index.js';

let server: TestServer;

async function api(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${init.key ?? server.apiKeys[0]}`,
      'content-type': 'application/json',
      ...(init.headers as Record<string, string> | undefined),
    },
  });
}

const items = async (path: string): Promise<unknown[]> =>
  ((await (await api(path)).json()) as { items: unknown[] }).items;
const balance = async (): Promise<number> =>
  ((await (await api('/credits')).json()) as { balance_credits: number }).balance_credits;

async function makeData(): Promise<string> {
  const started = await api('/v1/sessions', {
    method: 'POST',
    headers: { 'idempotency-key': 'reset-test-start' },
    body: JSON.stringify({ mode: 'boardroom', title: 'Move to four-day weeks', synths: ['cfo', 'cto'], rounds: 1 }),
  });
  expect(started.status).toBe(202);
  const subscribed = await api('/v1/webhooks', {
    method: 'POST',
    body: JSON.stringify({ label: 'Reset', url: 'https://example.com/hooks', events: ['session.created'] }),
  });
  expect(subscribed.status).toBe(201);
  return ((await started.json()) as { id: string }).id;
}

beforeAll(async () => {
  server = await startServer({ controls: true, credits: 5_000 });
});
afterAll(() => server.close());

test('a plain reset keeps the data; a data reset brings it back to the start', async () => {
  expect(await balance()).toBe(5_000);
  const id = await makeData();
  await server.control.failNext('getHealth', { status: 500 });
  await server.control.reset();
  expect(await server.control.faults()).toEqual([]);
  expect(await server.control.journal()).toEqual([]);
  expect((await api(`/v1/sessions/${id}`)).status).toBe(200);
  expect(await balance()).toBeLessThan(5_000);

  await server.control.completeSession(id, { verdict: 'Try it in one team first.' });
  await server.control.reset({ data: true });
  expect((await api(`/v1/sessions/${id}`)).status).toBe(404);
  expect(await items('/v1/sessions')).toEqual([]);
  expect(await items('/v1/webhooks')).toEqual([]);
  expect(await balance()).toBe(5_000);
  // Both provisioned keys still work, and the idempotency key used before starts a new session.
  expect((await api('/v1/sessions', { key: server.apiKeys[1] })).status).toBe(200);
  const again = await makeData();
  expect(again).not.toBe(id);
  expect(server.violations()).toEqual([]);
});

test('a data reset gives back the rate-limit quotas spent on the data it drops', async () => {
  const read = async (): Promise<{ remaining: number; quota: number }> => {
    const { headers } = await api('/v1/sessions');
    return {
      remaining: Number(/;r=(\d+)/.exec(headers.get('ratelimit') ?? '')?.[1]),
      quota: Number(/;q=(\d+)/.exec(headers.get('ratelimit-policy') ?? '')?.[1]),
    };
  };
  const { quota } = await read();
  await read();
  expect((await read()).remaining).toBeLessThan(quota - 1);
  await server.control.reset({ data: true });
  // The read after the reset is the first the window counts.
  expect(await read()).toEqual({ remaining: quota - 1, quota });
});

test('a reset with a data member that is not a boolean is refused with a problem', async () => {
  const refused = await fetch(`${server.baseUrl}/_controls/v1/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: 'yes' }),
  });
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { errors: Array<{ pointer: string }> }).errors[0]?.pointer).toBe('#/body/data');
});
