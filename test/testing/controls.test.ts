/**
 * The client-team controls (docs/testing.md "Client-team controls") over real HTTP: a queued fault takes
 * the next matching request and not the one after, the journal lists what arrived with its status and
 * filters, a session moved to `failed` reads as failed, a reset empties, and a server started without the
 * option has no `/_controls`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../../src/index.js';

let server: TestServer;

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${server.apiKeys[0]}`, 'content-type': 'application/json' },
  });
}

async function startSession(): Promise<string> {
  const response = await api('/v1/sessions', {
    method: 'POST',
    body: JSON.stringify({ mode: 'boardroom', title: 'Raise the price by 12%', synths: ['cfo', 'skeptic'], rounds: 2 }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

beforeAll(async () => {
  server = await startServer({ controls: true });
});
afterAll(() => server.close());

describe('client-team controls', () => {
  test('a queued fault answers the next matching request with its problem, and not the one after', async () => {
    await server.control.reset();
    const queued = await server.control.failNext('listSessions', { status: 429 });
    expect(await server.control.faults()).toEqual([{ ...queued, remaining: 1 }]);
    expect((await api('/v1/health')).status).toBe(200);
    const faulted = await api('/v1/sessions');
    expect(faulted.status).toBe(429);
    expect(faulted.headers.get('retry-after')).toBe('1');
    expect(faulted.headers.get('content-type')).toBe('application/problem+json');
    expect(((await faulted.json()) as { status: number }).status).toBe(429);
    expect((await api('/v1/sessions')).status).toBe(200);
    expect(await server.control.faults()).toEqual([]);
    const seen = await server.control.journal({ operation: 'listSessions' });
    expect(seen.map((entry) => [entry.status, entry.fault])).toEqual([
      [429, queued.id],
      [200, null],
    ]);
    expect(server.violations()).toEqual([]);
  });

  test('a fault can take several requests, delay one, or drop the connection', async () => {
    await server.control.failNext('getHealth', { count: 2, status: 500 });
    expect((await api('/v1/health')).status).toBe(500);
    expect((await api('/v1/health')).status).toBe(500);
    expect((await api('/v1/health')).status).toBe(200);
    await server.control.failNext('getHealth', { delayMs: 150 });
    const started = performance.now();
    expect((await api('/v1/health')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    await server.control.failNext('getHealth', { drop: true });
    await expect(api('/v1/health')).rejects.toThrow();
    expect((await server.control.journal({ operation: 'getHealth' })).at(-1)?.status).toBe(0);
  });

  test('a queued 503 answers with the designed service-unavailable problem and Retry-After', async () => {
    await server.control.failNext('listSessions', { status: 503 });
    const unavailable = await api('/v1/sessions');
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('1');
    const problem = (await unavailable.json()) as { type: string; title: string; status: number };
    expect(problem).toMatchObject({ title: 'Service unavailable', status: 503 });
    expect(problem.type).toMatch(/\/service-unavailable$/);
    expect((await api('/v1/sessions')).status).toBe(200);
  });

  test('bad fault requests are refused with a problem', async () => {
    await expect(server.control.failNext('noSuchOperation', { status: 500 })).rejects.toThrow(/400/);
    await expect(server.control.failNext('getHealth', { status: 299 })).rejects.toThrow(/400/);
    await expect(server.control.failNext('getHealth')).rejects.toThrow(/400/);
  });

  test('the journal lists the requests with their statuses, filtered by operation and time', async () => {
    await server.control.reset();
    expect(await server.control.journal()).toEqual([]);
    await api('/v1/health');
    const { now } = (await (await fetch(`${server.baseUrl}/_controls/v1/clock`)).json()) as { now: string };
    await api('/v1/sessions');
    // An id of the wrong form: refused before the handler, and journalled all the same.
    await api('/v1/sessions/ses_unknown');
    const all = await server.control.journal();
    expect(all.map((entry) => [entry.method, entry.path, entry.operationId, entry.status])).toEqual([
      ['GET', '/v1/health', 'getHealth', 200],
      ['GET', '/v1/sessions', 'listSessions', 200],
      ['GET', '/v1/sessions/ses_unknown', 'getSession', 400],
    ]);
    expect(all.every((entry) => entry.requestId !== '' && entry.durationMs >= 0)).toBe(true);
    expect((await server.control.journal({ operation: 'getSession' })).map((entry) => entry.status)).toEqual([400]);
    expect((await server.control.journal({ since: now })).map((entry) => entry.operationId)).toEqual([
      'listSessions',
      'getSession',
    ]);
  });

  test('a session moved to failed reads as failed, with its error; one moved to cancelled as cancelled', async () => {
    const failing = await startSession();
    await server.control.setSessionState(failing, 'failed', {
      error: { code: 'upstream_error', message: 'The provider timed out.' },
    });
    const failed = (await (await api(`/v1/sessions/${failing}`)).json()) as { status: string; error: unknown };
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ error_code: 'upstream_error', error_message: 'The provider timed out.' });
    const cancelling = await startSession();
    await server.control.setSessionState(cancelling, 'cancelled', { reason: 'testing' });
    expect(((await (await api(`/v1/sessions/${cancelling}`)).json()) as { status: string }).status).toBe('cancelled');
    // The lifecycle still rules: a failed session cannot be cancelled.
    await expect(server.control.setSessionState(failing, 'cancelled')).rejects.toThrow(/409/);
    expect(server.violations()).toEqual([]);
  });

  test('the clock moves forward on request', async () => {
    const before = Date.parse(await server.control.advanceClock(0));
    expect(Date.parse(await server.control.advanceClock(3_600_000)) - before).toBeGreaterThanOrEqual(3_600_000);
  });

  test('a reset empties the journal and the queued faults', async () => {
    await server.control.failNext('getHealth', { status: 500, count: 5 });
    await api('/v1/sessions');
    await server.control.reset();
    expect(await server.control.journal()).toEqual([]);
    expect(await server.control.faults()).toEqual([]);
  });
});

test('a server started without the controls answers 404 under /_controls', async () => {
  const plain = await startServer();
  try {
    expect((await fetch(`${plain.baseUrl}/_controls/v1/journal`)).status).toBe(404);
    await expect(plain.control.journal()).rejects.toThrow(/controls: true/);
  } finally {
    await plain.close();
  }
});

test('the controls and the conformance test control serve side by side, each on its own path', async () => {
  const both = await startServer({ controls: true, testControl: true });
  try {
    const health = await fetch(`${both.baseUrl}/v1/health`);
    expect(health.headers.get('x-boardkit-test-control')).toBe('/_test');
    expect((await fetch(`${both.baseUrl}/_test/faults`)).status).toBe(200);
    await both.control.failNext('getHealth', { status: 500 });
    expect((await fetch(`${both.baseUrl}/v1/health`)).status).toBe(500);
    // The control planes' own requests are not journalled.
    expect((await both.control.journal()).map((entry) => entry.status)).toEqual([200, 500]);
  } finally {
    await both.close();
  }
});

test('close() does not wait for a queued delay, and leaves no timer behind', async () => {
  const slow = await startServer({ controls: true });
  await slow.control.failNext('getHealth', { delayMs: 30_000 });
  const pending = fetch(`${slow.baseUrl}/v1/health`).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = performance.now();
  await slow.close();
  await pending;
  expect(performance.now() - started).toBeLessThan(5_000);
});
