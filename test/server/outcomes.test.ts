/**
 * What a session produces and records (seed "Endpoints"): outcomes once complete and their generation
 * (`outcomes.ready`), decisions, share links, and exports in the four formats.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  aWholeRun,
  advanceUntil,
  getJson,
  lineupStart,
  startSession,
  startTestServer,
  storedSession,
  waitFor,
  type TestServer,
} from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

let server: TestServer;
let receiver: Receiver;
let decided: string;

beforeAll(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  decided = await startSession(server, lineupStart(2));
  server.clock.advance(aWholeRun);
});

afterAll(async () => {
  await server.stop();
  await receiver.close();
});

async function post(path: string, json?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await server.request(path, { method: 'POST', ...(json === undefined ? {} : { json }) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('outcomes', () => {
  test('a session that has not completed has no outcomes', async () => {
    const running = await startSession(server);
    const response = await server.request(`/v1/sessions/${running}/outcomes`);
    expect(response.status).toBe(409);
    await response.arrayBuffer();
    expect((await post(`/v1/sessions/${running}/outcomes`, { format: 'report' })).status).toBe(409);
  });

  test('a complete session has its synthesis and memo', async () => {
    const outcomes = await getJson<Record<string, unknown>>(server, `/v1/sessions/${decided}/outcomes`);
    expect(outcomes).toMatchObject({
      session_id: decided,
      status: 'complete',
      synthesis: expect.any(String),
      memo: { verdict: expect.any(String) },
      outcomes: [],
    });
  });

  test('generating an outcome answers pending; it becomes ready and outcomes.ready fires', async () => {
    const created = await server.request('/v1/webhooks', {
      method: 'POST',
      json: { label: 'Outcomes', url: receiver.url, events: ['outcomes.ready'] },
    });
    await created.arrayBuffer();
    const before = (await getJson<{ balance_credits: number }>(server, '/credits')).balance_credits;
    const { status, body } = await post(`/v1/sessions/${decided}/outcomes`, { format: 'action_plan' });
    expect(status).toBe(202);
    expect(body).toMatchObject({ status: 'pending', content: null, ready_at: null, format: 'action_plan' });
    expect((await getJson<{ balance_credits: number }>(server, '/credits')).balance_credits).toBe(before - 10);
    server.clock.advance(5_000);
    const outcomes = await getJson<{ outcomes: Array<Record<string, unknown>> }>(
      server,
      `/v1/sessions/${decided}/outcomes`,
    );
    expect(outcomes.outcomes).toEqual([
      expect.objectContaining({ id: body['id'], status: 'ready', content: expect.stringMatching(/^#/) }),
    ]);
    await waitFor(() => receiver.deliveries.length === 1);
    expect(receiver.deliveries[0]?.body).toMatchObject({
      event: 'outcomes.ready',
      data: { session_id: decided, format: 'action_plan', outcome_id: body['id'] },
    });
  });

  test('a continued session keeps the outcomes of its last completion', async () => {
    const id = await startSession(server, lineupStart(1));
    server.clock.advance(aWholeRun);
    await (await server.request(`/v1/sessions/${id}/continue`, { method: 'POST' })).arrayBuffer();
    const outcomes = await getJson<{ status: string; memo: unknown }>(server, `/v1/sessions/${id}/outcomes`);
    expect(outcomes.status).toBe('continued');
    expect(outcomes.memo).not.toBeNull();
  });
});

describe('decisions', () => {
  test('decisions are recorded in any state and listed newest first', async () => {
    const running = await startSession(server);
    const first = await post(`/v1/sessions/${running}/decisions`, {
      decision: 'Hold the price until Q3.',
      rationale: 'Churn data is not in yet.',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      id: expect.stringMatching(/^dec_/),
      decided_by: null,
      decided_at: expect.any(String),
    });
    server.clock.advance(1);
    const second = await post(`/v1/sessions/${running}/decisions`, {
      decision: 'Raise by 8%.',
      decided_by: 'maria',
      decided_at: '2026-09-30T12:00:00Z',
    });
    expect(second.body['decided_at']).toBe('2026-09-30T12:00:00.000Z');
    const page = await getJson<{ items: Array<{ id: string }> }>(server, `/v1/sessions/${running}/decisions`);
    expect(page.items.map((item) => item.id)).toEqual([second.body['id'], first.body['id']]);
  });
});

describe('shares', () => {
  test('public and password links; the password is never returned; revocation is final', async () => {
    const open = await post(`/v1/sessions/${decided}/shares`, { access: 'public' });
    expect(open.status).toBe(201);
    expect(open.body).toMatchObject({
      access: 'public',
      view_count: 0,
      revoked_at: null,
      expires_at: null,
      url: expect.stringMatching(/^https:\/\/share\.decision-board\.example\/s\//),
    });
    server.clock.advance(1);
    const guarded = await post(`/v1/sessions/${decided}/shares`, {
      access: 'password',
      password: 'correct horse battery',
      expires_at: '2027-01-01T00:00:00Z',
    });
    expect(JSON.stringify(guarded.body)).not.toContain('correct horse');
    const list = await getJson<{ items: Array<{ id: string }> }>(server, `/v1/sessions/${decided}/shares`);
    expect(list.items.map((item) => item.id)).toEqual([guarded.body['id'], open.body['id']]);
    const revoked = await post(`/v1/sessions/${decided}/shares/${String(open.body['id'])}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body['revoked_at']).toEqual(expect.any(String));
    expect((await post(`/v1/sessions/${decided}/shares/${String(open.body['id'])}/revoke`)).status).toBe(409);
    const listed = await getJson<{ items: Array<{ id: string; revoked_at: string | null }> }>(
      server,
      `/v1/sessions/${decided}/shares`,
    );
    expect(listed.items.find((item) => item.id === open.body['id'])?.revoked_at).toEqual(expect.any(String));
  });

  test('a link of another session is 404; an expiry already past creates an expired link', async () => {
    const other = await startSession(server);
    const link = await post(`/v1/sessions/${other}/shares`, { access: 'public' });
    expect((await post(`/v1/sessions/${decided}/shares/${String(link.body['id'])}/revoke`)).status).toBe(404);
    const past = await post(`/v1/sessions/${decided}/shares`, { access: 'public', expires_at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(201);
    expect(past.body).toMatchObject({ expires_at: '2020-01-01T00:00:00.000Z', revoked_at: null });
    const listed = await getJson<{ items: Array<{ id: string }> }>(server, `/v1/sessions/${decided}/shares`);
    expect(listed.items.map((item) => item.id)).toContain(past.body['id']);
  });
});

describe('exports', () => {
  test.each([
    ['markdown', 'text/markdown; charset=utf-8', 'utf-8'],
    ['json', 'application/json', 'utf-8'],
    ['text', 'text/plain; charset=utf-8', 'utf-8'],
    ['pdf', 'application/pdf', 'base64'],
  ])('%s, inline in the answer, on both paths', async (format, contentType, encoding) => {
    for (const path of ['export', 'exports']) {
      const { status, body } = await post(`/v1/sessions/${decided}/${path}`, { format });
      expect(status).toBe(201);
      expect(body).toMatchObject({
        format,
        content_type: contentType,
        content_encoding: encoding,
        session_id: decided,
      });
      const bytes =
        encoding === 'base64'
          ? Buffer.from(String(body['content']), 'base64')
          : Buffer.from(String(body['content']), 'utf8');
      expect(body['size_bytes']).toBe(bytes.length);
      if (format === 'pdf') {
        expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      }
    }
  });

  test('a running session exports a snapshot; one with nothing said yet is a conflict', async () => {
    const id = await startSession(server, lineupStart(2));
    expect((await post(`/v1/sessions/${id}/export`, { format: 'markdown' })).status).toBe(409);
    advanceUntil(server, () => storedSession(server, id).v4_phase === 'debating');
    const snapshot = await post(`/v1/sessions/${id}/export`, { format: 'json' });
    expect(snapshot.status).toBe(201);
    expect(JSON.parse(String(snapshot.body['content']))).toMatchObject({ memo: null });
  });
});
