/**
 * Sessions (seed "Endpoints", "States and transitions"; docs/session-lifecycle.md): start and its credit
 * check, plan, read with long-poll, list, update, delete, and every transition of the lifecycle, the
 * illegal ones answered `409 conflict`.
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
  type TestServer,
  waitFor,
  waitForPoll,
} from './harness.js';
import { startReceiver } from './receiver.js';
import { boardConvenesAfterMs } from '../../src/server/domain/sessions/run-driver.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

type Session = Record<string, unknown> & {
  id: string;
  status: string;
  v4_phase: string;
  current_round: number;
  rounds: number;
};

function session(id: string): Promise<Session> {
  return getJson<Session>(server, `/v1/sessions/${id}`);
}

async function post(path: string, json?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await server.request(path, { method: 'POST', ...(json === undefined ? {} : { json }) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function balance(key?: string): Promise<number> {
  return (await getJson<{ balance_credits: number }>(server, '/credits', key)).balance_credits;
}

async function completed(body = lineupStart()): Promise<string> {
  const id = await startSession(server, body);
  server.clock.advance(aWholeRun);
  return id;
}

describe('start', () => {
  test('a start returns at once: created, with its estimate, URLs and Location', async () => {
    const response = await server.request('/v1/sessions', {
      method: 'POST',
      json: lineupStart(3, { model_class: 'premium' }),
    });
    expect(response.status).toBe(202);
    const body = (await response.json()) as {
      id: string;
      status: string;
      estimated_cost_credits: number;
      events_url: string;
    };
    expect(body.status).toBe('created');
    expect(body.estimated_cost_credits).toBe(2 * 3 * 15);
    expect(body.events_url).toBe(`${server.baseUrl}/v1/sessions/${body.id}/events`);
    expect(response.headers.get('location')).toBe(`/v1/sessions/${body.id}`);
    const read = await session(body.id);
    expect(read).toMatchObject({ status: 'created', memo: null, v4_phase: 'queued', current_round: 1 });
  });

  test('a session is created until its board convenes, then running; a long poll sees the change', async () => {
    const id = await startSession(server, lineupStart(2));
    expect(await session(id)).toMatchObject({ status: 'created', v4_phase: 'queued' });
    const timers = server.wallClock.pending();
    const poll = getJson<Session>(server, `/v1/sessions/${id}?wait_ms=60000`);
    await waitForPoll(server, timers);
    server.clock.advance(boardConvenesAfterMs - 1);
    expect(storedSession(server, id).status).toBe('created');
    server.clock.advance(1);
    expect(await poll).toMatchObject({ status: 'running', v4_phase: 'staffing', current_round: 1 });
    server.clock.advance(aWholeRun);
    expect(await session(id)).toMatchObject({ status: 'complete', v4_phase: 'done' });
  });

  test('the receiver of session.created finds the session still created', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await post('/v1/webhooks', { label: 'Created', url: receiver.url, events: ['session.created'] });
      expect(hook.status).toBe(201);
      const id = await startSession(server, lineupStart(1));
      await waitFor(() => receiver.deliveries.some((delivery) => delivery.body.data['session_id'] === id));
      expect(await session(id)).toMatchObject({ status: 'created', v4_phase: 'queued' });
      const removed = await server.request(`/v1/webhooks/${(hook.body['subscription'] as { id: string }).id}`, {
        method: 'DELETE',
      });
      expect(removed.status).toBe(204);
      await removed.arrayBuffer();
      await server.server.services.webhooks.dispatcher.idle();
    } finally {
      await receiver.close();
    }
  });

  test('the estimate is drawn from the balance at the start', async () => {
    const before = await balance();
    await startSession(server, lineupStart(2));
    expect(await balance()).toBe(before - 2 * 2 * 5);
  });

  test('a question start is staffed by the service', async () => {
    const response = await server.request('/v1/sessions', {
      method: 'POST',
      json: { question: 'Should we sunset the legacy API in Q3?', session_type: 'boardroom' },
    });
    const body = (await response.json()) as { session_id: string; task_id: string };
    expect(body.task_id).toMatch(/^task_/);
    const read = await session(body.session_id);
    expect((read['decision_brief'] as { staffed_by: string }).staffed_by).toBe('service');
    expect(read['question']).toBe('Should we sunset the legacy API in Q3?');
  });

  test('an unknown mode is a 400 pointing at the mode', async () => {
    const { status, body } = await post('/v1/sessions', { mode: 'karaoke_night' });
    expect(status).toBe(400);
    expect(body['errors']).toEqual([expect.objectContaining({ pointer: '#/body/mode' })]);
  });

  test('a start the balance does not cover is a 402 with the estimate, the balance and where to top up', async () => {
    const rich = lineupStart(10, {
      model_class: 'premium',
      synths: [
        'cfo',
        'skeptic',
        'strategist',
        'cto',
        'investor',
        'economist',
        'ethicist',
        'futurist',
        'founder',
        'growth_lead',
        'people_lead',
        'product_lead',
      ],
    });
    let result = await post('/v1/sessions', rich);
    while (result.status === 202) {
      result = await post('/v1/sessions', rich);
    }
    expect(result.status).toBe(402);
    const left = await balance();
    expect(result.body).toMatchObject({
      type: 'https://problems.decision-board.example/insufficient-credits',
      session_estimate_credits: 12 * 10 * 15,
      balance_credits: left,
      topup_url: expect.stringMatching(/^https:\/\//),
    });
    // The refusal spent nothing; the plan shows the same check without a 402.
    expect(await balance()).toBe(left);
    const plan = await post('/v1/sessions/plan', rich);
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ sufficient_credits: false, balance_credits: left, estimate: { credits: 1800 } });
  });
});

describe('read, list, update, delete', () => {
  test('a long poll returns as soon as the session changes', async () => {
    const id = await startSession(server, lineupStart(1));
    const timers = server.wallClock.pending();
    const poll = getJson<Session>(server, `/v1/sessions/${id}?wait_ms=60000`);
    await waitForPoll(server, timers);
    server.clock.advance(10_000);
    const changed = await poll;
    expect(changed.v4_phase).not.toBe('staffing');
  });

  test('a long poll on a session that does not change ends when wait_ms of wall-clock time has passed, whatever the server clock does', async () => {
    const id = await startSession(server, lineupStart(1));
    const before = await session(id);
    const timers = server.wallClock.pending();
    let answered = false;
    const poll = getJson<Session>(server, `/v1/sessions/${id}?wait_ms=30000`).finally(() => (answered = true));
    await waitForPoll(server, timers);
    // Simulated time that changes nothing (less than the board takes to convene) does not end the wait.
    server.clock.advance(1);
    server.wallClock.advance(29_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    server.wallClock.advance(1_000);
    expect((await poll).status).toBe(before.status);
  });

  test('a long poll on a session that has ended answers at once: no change a wait could see is coming', async () => {
    const id = await completed();
    expect((await getJson<Session>(server, `/v1/sessions/${id}?wait_ms=60000`)).status).toBe('complete');
  });

  test('a run completes with a memo, v4_phase done and every round charged', async () => {
    const id = await completed(lineupStart(2));
    const done = await session(id);
    expect(done).toMatchObject({
      status: 'complete',
      v4_phase: 'done',
      current_round: 2,
      credits_charged: 20,
      credits_refunded: 0,
    });
    expect(done['memo']).toMatchObject({ verdict: expect.any(String), confidence_0_100: expect.any(Number) });
    expect(done['completed_at']).toEqual(expect.any(String));
  });

  test('update merges metadata, removes keys set to null, changes the title, and keeps the state', async () => {
    const id = await startSession(server, lineupStart(1, { metadata: { team: 'pricing', quarter: 'Q3' } }));
    const response = await server.request(`/v1/sessions/${id}`, {
      method: 'PATCH',
      json: { title: 'Price rise, second look', metadata: { quarter: null, owner: 'maria' } },
    });
    expect(response.status).toBe(200);
    const updated = (await response.json()) as Session;
    expect(updated['metadata']).toEqual({ team: 'pricing', owner: 'maria' });
    expect(updated['title']).toBe('Price rise, second look');
    expect(updated.status).toBe('created');
  });

  test('a metadata key named __proto__ is kept like any other', async () => {
    const id = await startSession(server);
    const response = await server.request(`/v1/sessions/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{"metadata":{"__proto__":"kept"}}',
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { metadata: Record<string, string> }).metadata).toEqual(
      JSON.parse('{"__proto__":"kept"}'),
    );
  });

  test('metadata may not grow past 20 keys: an update that would is a conflict with the stored keys', async () => {
    const id = await startSession(server);
    const metadata = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`k${index}`, 'v']));
    expect((await server.request(`/v1/sessions/${id}`, { method: 'PATCH', json: { metadata } })).status).toBe(200);
    const response = await server.request(`/v1/sessions/${id}`, {
      method: 'PATCH',
      json: { metadata: { one_more: 'v' } },
    });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { type: string }).type).toMatch(/\/conflict$/);
  });

  test('a running session cannot be deleted; an ended one is deleted with 204 and is 404 afterwards', async () => {
    const id = await startSession(server);
    server.clock.advance(boardConvenesAfterMs);
    const refused = await server.request(`/v1/sessions/${id}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    await refused.arrayBuffer();
    server.clock.advance(aWholeRun);
    const deleted = await server.request(`/v1/sessions/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    for (const path of [`/v1/sessions/${id}`, `/v1/sessions/${id}/outcomes`, `/v1/sessions/${id}/events`]) {
      const gone = await server.request(path);
      expect(gone.status).toBe(404);
      await gone.arrayBuffer();
    }
    const again = await server.request(`/v1/sessions/${id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    await again.arrayBuffer();
    const list = await getJson<{ items: Array<{ id: string }> }>(server, '/v1/sessions?limit=100');
    expect(list.items.map((item) => item.id)).not.toContain(id);
  });

  test('a created session is deleted before its board convenes, and its reservation returns to the pool', async () => {
    const before = await balance();
    const id = await startSession(server, lineupStart(2));
    expect(await balance()).toBe(before - 20);
    const deleted = await server.request(`/v1/sessions/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    await deleted.arrayBuffer();
    expect(await balance()).toBe(before);
    server.clock.advance(boardConvenesAfterMs);
    const gone = await server.request(`/v1/sessions/${id}`);
    expect(gone.status).toBe(404);
    await gone.arrayBuffer();
  });

  test('the plan recorded at the start stays readable', async () => {
    const id = await startSession(server, lineupStart(2));
    const plan = await getJson<{ estimate: { credits: number }; rounds: number }>(server, `/v1/sessions/${id}/plan`);
    expect(plan).toMatchObject({ rounds: 2, estimate: { credits: 20 } });
  });
});

describe('cancel', () => {
  test('cancelling mid-run charges the rounds that ran and refunds the rest', async () => {
    const before = await balance();
    const id = await startSession(server, lineupStart(3));
    advanceUntil(server, () => storedSession(server, id).current_round === 2);
    const { status, body } = await post(`/v1/sessions/${id}/cancel`, { reason: 'The pricing review moved to Q4.' });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'cancelled',
      v4_phase: 'halted',
      credits_charged: 10,
      credits_refunded: 20,
      cancellation_reason: 'The pricing review moved to Q4.',
    });
    expect(await balance()).toBe(before - 10);
    const credits = await getJson<{ recent_usage: Array<{ kind: string; credits: number; session_id: string }> }>(
      server,
      '/credits',
    );
    expect(
      credits.recent_usage.filter((entry) => entry.session_id === id).map((entry) => [entry.kind, entry.credits]),
    ).toEqual([
      ['refund', 20],
      ['charge', -30],
    ]);
    // The run stopped: nothing more happens to the session.
    server.clock.advance(aWholeRun);
    expect(await session(id)).toMatchObject({ status: 'cancelled', memo: null });
  });

  test('a session that has ended cannot be cancelled', async () => {
    const id = await completed();
    expect((await post(`/v1/sessions/${id}/cancel`)).status).toBe(409);
  });
});

describe('transitions', () => {
  test('archive: only an ended session; archived is final and read-only for runs', async () => {
    const running = await startSession(server);
    expect((await post(`/v1/sessions/${running}/archive`)).status).toBe(409);
    server.clock.advance(aWholeRun);
    const archived = await post(`/v1/sessions/${running}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ status: 'archived', archived_at: expect.any(String) });
    expect((await post(`/v1/sessions/${running}/archive`)).status).toBe(409);
    expect((await post(`/v1/sessions/${running}/continue`)).status).toBe(409);
    expect((await post(`/v1/sessions/${running}/reconvene`)).status).toBe(409);
    const patched = await server.request(`/v1/sessions/${running}`, {
      method: 'PATCH',
      json: { title: 'Kept for the record' },
    });
    expect(patched.status).toBe(200);
    await patched.arrayBuffer();
  });

  test('continue: follow-up rounds on a complete session, numbered on, then complete again', async () => {
    const id = await completed(lineupStart(2));
    const before = await balance();
    const continued = await post(`/v1/sessions/${id}/continue`, {
      rounds: 2,
      prompt: 'Churn came in at 6% in the pilot.',
    });
    expect(continued.status).toBe(202);
    expect(continued.body).toMatchObject({
      status: 'continued',
      rounds: 4,
      current_round: 3,
      estimated_cost_credits: 40,
    });
    expect(await balance()).toBe(before - 20);
    expect((await post(`/v1/sessions/${id}/continue`)).status).toBe(409);
    server.clock.advance(aWholeRun);
    expect(await session(id)).toMatchObject({
      status: 'complete',
      v4_phase: 'done',
      current_round: 4,
      credits_charged: 40,
    });
  });

  test('continue past 10 rounds in all is a conflict', async () => {
    const id = await completed(lineupStart(9));
    expect((await post(`/v1/sessions/${id}/continue`, { rounds: 2 })).status).toBe(409);
  });

  test('reconvene: a new round session from a decided one; the source becomes reconvened', async () => {
    const source = await completed(lineupStart(3));
    const { status, body } = await post(`/v1/sessions/${source}/reconvene`, {
      context: 'The competitor cut prices by 20%.',
    });
    expect(status).toBe(202);
    expect(body).toMatchObject({
      status: 'created',
      source_session_id: source,
      current_round: 4,
      rounds: 4,
      context: 'The competitor cut prices by 20%.',
    });
    expect(await session(source)).toMatchObject({ status: 'reconvened', reconvened_into: body['id'] });
    expect((await post(`/v1/sessions/${source}/reconvene`)).status).toBe(409);
    server.clock.advance(aWholeRun);
    expect(await session(String(body['id']))).toMatchObject({ status: 'complete', current_round: 4 });
  });

  test('reconvene needs a decided session', async () => {
    const running = await startSession(server);
    expect((await post(`/v1/sessions/${running}/reconvene`)).status).toBe(409);
  });

  test('fork: a new session with altered context from any state; the source is unchanged', async () => {
    const source = await startSession(server, lineupStart(2, { metadata: { team: 'pricing' } }));
    const { status, body } = await post(`/v1/sessions/${source}/fork`, {
      context: 'Assume a 6-month rollout instead.',
    });
    expect(status).toBe(202);
    expect(body).toMatchObject({
      status: 'created',
      forked_from: source,
      context: 'Assume a 6-month rollout instead.',
      rounds: 2,
      current_round: 1,
      metadata: { team: 'pricing' },
    });
    expect((await session(source))['forked_from']).toBeNull();
  });

  test('a failure mid-run halts the session, refunds the unrun rounds and keeps no memo', async () => {
    const id = await startSession(
      server,
      lineupStart(3, { context: 'Model the price rise. [simulate:upstream_error]' }),
    );
    server.clock.advance(aWholeRun);
    const failed = await session(id);
    expect(failed).toMatchObject({
      status: 'failed',
      v4_phase: 'halted',
      memo: null,
      current_round: 2,
      credits_charged: 10,
      credits_refunded: 20,
    });
    expect(failed['error']).toMatchObject({ error_code: 'upstream_error' });
    expect((await post(`/v1/sessions/${id}/cancel`)).status).toBe(409);
    expect((await post(`/v1/sessions/${id}/archive`)).status).toBe(200);
  });

  test('a consult session cannot be continued, reconvened, forked or sent messages', async () => {
    const response = await server.request('/v1/sessions', {
      method: 'POST',
      json: {
        question: 'How should we structure the EU subsidiary for VAT?',
        session_type: 'consult',
        synth_id: 'tax_advisor',
      },
    });
    const { session_id: id } = (await response.json()) as { session_id: string };
    expect(await session(id)).toMatchObject({ session_type: 'consult', synth_id: 'tax_advisor', status: 'created' });
    expect((await post(`/v1/sessions/${id}/fork`, { context: 'x' })).status).toBe(409);
    expect((await post(`/v1/sessions/${id}/messages`, { content: 'Hello' })).status).toBe(409);
    expect((await post(`/v1/sessions/${id}/cancel`)).status).toBe(200);
  });
});

describe('messages', () => {
  test('a message is taken up by the round in progress; Synths sent back are charged', async () => {
    const id = await startSession(server, lineupStart(2));
    server.clock.advance(1_000);
    const before = await balance();
    const { status, body } = await post(`/v1/sessions/${id}/messages`, {
      content: 'What if churn reaches 6%?',
      send_back: ['skeptic'],
    });
    expect(status).toBe(202);
    expect(body).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      session_id: id,
      round: 1,
      send_back: ['skeptic'],
    });
    expect(await balance()).toBe(before - 5);
    expect((await session(id))['estimated_cost_credits']).toBe(25);
    server.clock.advance(aWholeRun);
    expect(await session(id)).toMatchObject({ status: 'complete', credits_charged: 25 });
  });

  test('a Synth of the library that is not on the board cannot be sent back: a conflict with the lineup', async () => {
    const id = await startSession(server);
    server.clock.advance(boardConvenesAfterMs);
    const { status, body } = await post(`/v1/sessions/${id}/messages`, {
      content: 'Over to you',
      send_back: ['ethicist'],
    });
    expect(status).toBe(409);
    expect(body).toMatchObject({
      type: expect.stringMatching(/\/conflict$/),
      detail: expect.stringContaining('"ethicist"'),
    });
  });

  test('a session that is not running takes no messages', async () => {
    const early = await startSession(server);
    expect((await post(`/v1/sessions/${early}/messages`, { content: 'Too early?' })).status).toBe(409);
    const id = await completed();
    expect((await post(`/v1/sessions/${id}/messages`, { content: 'Too late?' })).status).toBe(409);
  });
});
