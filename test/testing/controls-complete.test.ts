/**
 * A session completed through the client controls with a chosen verdict reads as a complete session to
 * every read (record, outcomes, both event streams) and is announced by `session.complete`, over real
 * HTTP; bad verdicts are refused with a problem.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startServer, type TestServer } from '../../src/index.js';
import { startReceiver, type Receiver } from '../server/receiver.js';

let server: TestServer;
let receiver: Receiver;

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${server.apiKeys[0]}`, 'content-type': 'application/json' },
  });
}

async function json<T>(path: string, init?: RequestInit): Promise<T> {
  return (await (await api(path, init)).json()) as T;
}

async function startSession(title = 'Raise the price by 12%'): Promise<string> {
  const body = JSON.stringify({ mode: 'boardroom', title, synths: ['cfo', 'skeptic'], rounds: 2 });
  return (await json<{ id: string }>('/v1/sessions', { method: 'POST', body })).id;
}

beforeAll(async () => {
  server = await startServer({ controls: true });
  receiver = await startReceiver();
  const subscribed = await api('/v1/webhooks', {
    method: 'POST',
    body: JSON.stringify({ label: 'Completions', url: receiver.url, events: ['session.complete'] }),
  });
  expect(subscribed.status).toBe(201);
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

describe('a session completed with a chosen verdict', () => {
  test('reads as complete everywhere, with the verdict in its memo, outcomes, streams and webhook', async () => {
    const id = await startSession();
    const verdict = 'Do not raise the price this quarter.';
    await server.control.completeSession(id, { verdict, conditions: ['Churn stays under 4%'] });

    const session = await json<{ status: string; v4_phase: string; memo: Record<string, unknown> }>(
      `/v1/sessions/${id}`,
    );
    expect(session.status).toBe('complete');
    expect(session.v4_phase).toBe('done');
    expect(session.memo).toMatchObject({ verdict, conditions: ['Churn stays under 4%'] });
    expect(session.memo.confidence_0_100).toEqual(expect.any(Number));

    const outcomes = await json<{ status: string; memo: { verdict: string }; synthesis: string }>(
      `/v1/sessions/${id}/outcomes`,
    );
    expect(outcomes.status).toBe('complete');
    expect(outcomes.memo.verdict).toBe(verdict);
    expect(outcomes.synthesis).toContain(verdict);

    // A finished session's streams replay what happened and end: every round, then the end.
    const events = await (await api(`/v1/sessions/${id}/events`)).text();
    expect(events.match(/^event: round\.complete$/gm)).toHaveLength(2);
    expect(events).toMatch(/^event: session\.complete$/m);
    expect(await (await api(`/v1/sessions/${id}/summary`)).text()).toMatch(/^event: summary\.final$/m);

    await vi.waitFor(() => expect(receiver.deliveries).toHaveLength(1), { timeout: 10_000, interval: 20 });
    expect(receiver.deliveries[0]?.body).toMatchObject({
      event: 'session.complete',
      data: { session_id: id, verdict },
    });
    expect(server.violations()).toEqual([]);
  });

  test('a session whose board has not convened yet completes too; a complete one cannot again', async () => {
    const id = await startSession('Open an office in Lisbon');
    await server.control.completeSession(id, {
      verdict: 'Open the Lisbon office in spring.',
      confidence: 81,
      dissent: [{ synth: 'skeptic', position: 'Hiring there takes longer than planned.' }],
    });
    const session = await json<{ status: string; memo: Record<string, unknown> }>(`/v1/sessions/${id}`);
    expect(session.memo).toMatchObject({ confidence_0_100: 81, dissent: [{ synth: 'skeptic' }] });
    await expect(server.control.completeSession(id, { verdict: 'Again.' })).rejects.toThrow(/409/);
  });

  test('a run its markers would fail completes all the same, with the chosen verdict', async () => {
    const id = await startSession('Cut prices [simulate:upstream_error]');
    await server.control.completeSession(id, { verdict: 'Keep the prices.' });
    const session = await json<{ status: string; error?: unknown; memo: { verdict: string } }>(`/v1/sessions/${id}`);
    expect(session).toMatchObject({ status: 'complete', memo: { verdict: 'Keep the prices.' } });
    const events = await (await api(`/v1/sessions/${id}/events`)).text();
    expect(events).not.toMatch(/^event: session\.failed$/m);
    expect(events).toMatch(/^event: session\.complete$/m);
    expect(server.violations()).toEqual([]);
  });

  test('a missing or malformed memo is refused with a problem naming the member', async () => {
    const id = await startSession();
    const put = (body: unknown) =>
      fetch(`${server.baseUrl}/_controls/v1/sessions/${id}/state`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const [body, pointer] of [
      [{ state: 'complete' }, '#/body/verdict'],
      [{ state: 'complete', verdict: '  ' }, '#/body/verdict'],
      [{ state: 'complete', verdict: 'Go.', confidence_0_100: 140 }, '#/body/confidence_0_100'],
      [{ state: 'complete', verdict: 'Go.', mood: 'happy' }, '#/body/mood'],
      [{ state: 'decided', verdict: 'Go.' }, '#/body/state'],
    ] as const) {
      const refused = await put(body);
      expect(refused.status).toBe(400);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem = (await refused.json()) as { errors: Array<{ pointer: string }> };
      expect(problem.errors[0]?.pointer).toBe(pointer);
    }
    expect((await json<{ status: string }>(`/v1/sessions/${id}`)).status).not.toBe('complete');
    await expect(server.control.completeSession('ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E', { verdict: 'Go.' })).rejects.toThrow(
      /404/,
    );
  });
});
