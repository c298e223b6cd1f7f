/**
 * Actions through connected tools with explicit approval, their undo, and 1-on-1 chat with a Synth
 * (seed "Endpoints"; "States and transitions": an execution can be undone).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { aWholeRun, getJson, lineupStart, startSession, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let decided: string;
const tools = new Map<string, { id: string; status: string }>();

beforeAll(async () => {
  server = await startTestServer();
  decided = await startSession(server, lineupStart(1));
  server.clock.advance(aWholeRun);
  const page = await getJson<{ items: Array<{ id: string; provider: string; status: string }> }>(
    server,
    '/integrations?limit=100',
  );
  page.items.forEach((item) => tools.set(item.provider, item));
});

afterAll(async () => {
  await server.stop();
});

async function post(
  path: string,
  json?: unknown,
  key?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await server.request(path, {
    method: 'POST',
    ...(json === undefined ? {} : { json }),
    ...(key === undefined ? {} : { key }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function execution(provider: string, operation: string, parameters: Record<string, unknown>, session = decided) {
  return {
    session_id: session,
    recommendation: 'Open a data-residency review with legal before the EU launch.',
    integration_id: tools.get(provider)?.id,
    operation,
    parameters,
    approval: { approved: true, approved_by: 'maria.keller@acme-analytics.com', note: 'Approved in the Monday sync.' },
  };
}

describe('actions', () => {
  test('an approved recommendation runs through the tool and can be undone once', async () => {
    const { status, body } = await post(
      '/v1/actions/execute',
      execution('linear', 'create_issue', { team_key: 'LEGAL', title: 'EU data-residency review' }),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'executed',
      provider: 'linear',
      undoable: true,
      error: null,
      approval_note: 'Approved in the Monday sync.',
      result: { external_id: expect.stringMatching(/^ISS-\d+$/) },
    });
    const undone = await post(`/v1/actions/${String(body['id'])}/undo`);
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ status: 'undone', undone_at: expect.any(String) });
    expect((await post(`/v1/actions/${String(body['id'])}/undo`)).status).toBe(409);
  });

  test('a tool that refuses is recorded as failed and cannot be undone', async () => {
    const { status, body } = await post(
      '/v1/actions/execute',
      execution('jira', 'create_issue', { project_key: 'SEC', summary: 'SOC 2 readiness', priority: 'Highest' }),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'failed', result: null, undoable: false, error: { code: 'tool_rejected' } });
    expect((await post(`/v1/actions/${String(body['id'])}/undo`)).status).toBe(409);
  });

  test('without approval nothing reaches the tool', async () => {
    const unapproved = {
      ...execution('slack', 'post_message', { channel: '#eu', text: 'Go' }),
      approval: { approved: false, approved_by: 'maria' },
    };
    const { status, body } = await post('/v1/actions/execute', unapproved);
    expect(status).toBe(400);
    expect(body['errors']).toEqual([expect.objectContaining({ pointer: '#/body/approval/approved' })]);
  });

  test('a tool that is not connected, an operation it lacks, or an undecided session is a conflict', async () => {
    expect((await post('/v1/actions/execute', execution('asana', 'create_task', { name: 'Review' }))).status).toBe(409);
    expect((await post('/v1/actions/execute', execution('slack', 'create_issue', { title: 'x' }))).status).toBe(409);
    const running = await startSession(server);
    expect(
      (await post('/v1/actions/execute', execution('slack', 'post_message', { channel: '#eu', text: 'Go' }, running)))
        .status,
    ).toBe(409);
  });

  test("an unknown integration, or another workspace's session, is 404", async () => {
    const unknown = {
      ...execution('slack', 'post_message', { channel: '#eu', text: 'Go' }),
      integration_id: 'int_00000000000000000000000000',
    };
    expect((await post('/v1/actions/execute', unknown)).status).toBe(404);
    expect(
      (
        await post(
          '/v1/actions/execute',
          execution('slack', 'post_message', { channel: '#eu', text: 'Go' }),
          server.otherKey,
        )
      ).status,
    ).toBe(404);
  });
});

describe('chat', () => {
  test('a reply in the Synth’s voice, a conversation to continue, and a charge per turn', async () => {
    const before = (await getJson<{ balance_credits: number }>(server, '/credits')).balance_credits;
    const first = await post('/v1/synths/chat', {
      synth: 'cfo',
      message: 'Can we afford a second EU hire?',
      session_id: decided,
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      synth: 'cfo',
      conversation_id: expect.stringMatching(/^cnv_/),
      credits_charged: 5,
      reply: expect.any(String),
    });
    const second = await post('/v1/synths/chat', {
      synth: 'cfo',
      message: 'And a third?',
      conversation_id: first.body['conversation_id'],
    });
    expect(second.body['conversation_id']).toBe(first.body['conversation_id']);
    expect(second.body['reply']).not.toBe(first.body['reply']);
    expect((await getJson<{ balance_credits: number }>(server, '/credits')).balance_credits).toBe(before - 10);
  });

  test('a Synth outside the library fails the schema; an unknown conversation is 404; one held with another Synth is 409', async () => {
    expect((await post('/v1/synths/chat', { synth: 'astrologer', message: 'Hi' })).status).toBe(400);
    const missing = await post('/v1/synths/chat', {
      synth: 'cfo',
      message: 'Hi',
      conversation_id: 'cnv_00000000000000000000000000',
    });
    expect(missing.status).toBe(404);
    const started = await post('/v1/synths/chat', { synth: 'cfo', message: 'Hi' });
    expect(
      (
        await post('/v1/synths/chat', {
          synth: 'skeptic',
          message: 'Hi',
          conversation_id: started.body['conversation_id'],
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await post(
          '/v1/synths/chat',
          { synth: 'cfo', message: 'Hi', conversation_id: started.body['conversation_id'] },
          server.otherKey,
        )
      ).status,
    ).toBe(404);
  });
});

describe('catalogues', () => {
  test('24 Synths, 10 modes, the connected tools oldest first, and the credit balance', async () => {
    const synths = await getJson<{ items: unknown[] }>(server, '/synths?limit=100');
    expect(synths.items).toHaveLength(24);
    const modes = await getJson<{ items: Array<{ slug: string; aliases: string[] }> }>(server, '/modes?limit=100');
    expect(modes.items).toHaveLength(10);
    expect(modes.items.find((mode) => mode.slug === 'the_arena')?.aliases).toContain('stress_test');
    const integrations = await getJson<{ items: Array<{ connected_at: string; status: string }> }>(
      server,
      '/integrations?limit=100',
    );
    const times = integrations.items.map((item) => item.connected_at);
    expect(times).toEqual([...times].sort());
    expect(integrations.items.map((item) => item.status)).toContain('disconnected');
    const credits = await getJson<Record<string, unknown>>(server, '/credits');
    expect(credits).toMatchObject({
      tier: 'ultra',
      pool: { shared_by: ['web', 'mcp', 'api'], per_call_surcharge_credits: 0 },
    });
    expect((credits['period'] as { credits_used: number }).credits_used).toBeGreaterThan(0);
  });
});
