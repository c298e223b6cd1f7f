/**
 * Starts under concurrency (docs/reliability.md "Load"). A burst of starts with one `Idempotency-Key` makes
 * one session and as many identical answers (seed "Limits": a repeated key returns the original response);
 * a burst with distinct keys makes one session each, and the credit ledger balances: every accepted start
 * charged its estimate once, the balance the sum of the ledger, never below zero, and the starts the
 * balance no longer covered refused with `402` and nothing recorded.
 *
 * The starts bucket allows 60 starts a minute per key (seed "Limits"), so a burst is spread over several
 * keys of the same workspace; the idempotency scope and the credit pool are the workspace's.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { getJson, lineupStart, startTestServer, type TestServer } from '../server/harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

/** `count` more keys in the workspace of `secret`, each with a rate-limit window of its own. */
function keysOfWorkspace(secret: string, count: number, label: string): string[] {
  const { store, clock } = server.server.services;
  const workspaceId = store.apiKeys.lookup(secret)?.workspaceId ?? '';
  return Array.from({ length: count }, (_, index) => {
    const key = `sk_test_${label}${String(index).padStart(4, '0')}`;
    store.apiKeys.add(workspaceId, key, clock.now());
    return key;
  });
}

interface Answer {
  status: number;
  body: string;
  location: string | null;
  replayed: string | null;
}

async function start(key: string, idempotencyKey: string, body: Record<string, unknown>): Promise<Answer> {
  const response = await server.request('/v1/sessions', {
    method: 'POST',
    key,
    headers: { 'idempotency-key': idempotencyKey },
    json: body,
  });
  return {
    status: response.status,
    body: await response.text(),
    location: response.headers.get('location'),
    replayed: response.headers.get('idempotent-replayed'),
  };
}

async function allSessions(key: string): Promise<Array<{ id: string; estimated_cost_credits: number }>> {
  const sessions: Array<{ id: string; estimated_cost_credits: number }> = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = await getJson<{ items: typeof sessions; next_cursor: string | null }>(
      server,
      `/v1/sessions?limit=100${query}`,
      key,
    );
    sessions.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return sessions;
}

interface LedgerRow {
  kind: string;
  credits: number;
  session_id: string | null;
}

/** Tops the workspace of `key` up (or down) to exactly `credits`; returns that balance. */
function fundExactly(key: string, credits: number): number {
  const { store, clock } = server.server.services;
  const workspaceId = store.apiKeys.lookup(key)?.workspaceId ?? '';
  const difference = credits - store.credits.balance(workspaceId);
  store.credits.record({
    workspaceId,
    kind: 'topup',
    credits: difference,
    sessionId: null,
    description: 'Test balance',
    at: clock.now(),
  });
  return credits;
}

function ledgerOf(key: string): LedgerRow[] {
  const { store } = server.server.services;
  const workspaceId = store.apiKeys.lookup(key)?.workspaceId ?? '';
  return store.db
    .prepare<[string], LedgerRow>(
      'SELECT kind, credits, session_id FROM credit_entries WHERE workspace_id = ? ORDER BY seq',
    )
    .all(workspaceId);
}

test('100 concurrent starts with one Idempotency-Key make one session and 100 identical answers', async () => {
  const keys = keysOfWorkspace(server.otherKey, 2, 'samekey');
  const body = lineupStart(1, { title: 'One key, a hundred retries' });
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, index) => start(keys[index % 2] as string, 'idem-burst-1', body)),
  );

  expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([202]));
  expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
  expect(new Set(answers.map((answer) => answer.location)).size).toBe(1);
  // The first answer is the original, every other one its replay.
  expect(answers.filter((answer) => answer.replayed === null)).toHaveLength(1);
  expect(answers.filter((answer) => answer.replayed === 'true')).toHaveLength(99);

  const { id } = JSON.parse(answers[0]?.body ?? '{}') as { id: string };
  expect((await allSessions(server.otherKey)).map((session) => session.id)).toEqual([id]);
  const charges = ledgerOf(server.otherKey).filter((row) => row.kind === 'charge');
  expect(charges).toEqual([{ kind: 'charge', credits: -10, session_id: id }]);

  // The key stays bound to that request: another body with it is a conflict and starts nothing.
  const other = await start(keys[0] as string, 'idem-burst-1', { ...body, rounds: 2 });
  expect(other.status).toBe(409);
  expect(await allSessions(server.otherKey)).toHaveLength(1);
});

test('1,000 concurrent starts with distinct keys make 1,000 sessions and a ledger that balances', async () => {
  // Each start costs 10 credits (2 Synths, 1 round, standard), so the starting balance covers exactly
  // 1,000; ten more starts in the same burst find the pool empty.
  const body = lineupStart(1, { title: 'A thousand at once' });
  const perStart = 10;
  const affordable = 1_000;
  const total = affordable + 10;
  const startingCredits = fundExactly(server.key, affordable * perStart);
  const keys = keysOfWorkspace(server.key, 20, 'distinct');
  const answers = await Promise.all(
    Array.from({ length: total }, (_, index) =>
      start(keys[index % keys.length] as string, `idem-distinct-${index}`, body),
    ),
  );

  const accepted = answers.filter((answer) => answer.status === 202);
  const refused = answers.filter((answer) => answer.status === 402);
  expect(accepted).toHaveLength(affordable);
  expect(refused).toHaveLength(total - affordable);
  expect(accepted.every((answer) => answer.replayed === null)).toBe(true);
  for (const answer of refused) {
    expect(JSON.parse(answer.body)).toMatchObject({
      status: 402,
      balance_credits: 0,
      session_estimate_credits: perStart,
    });
  }
  const startedIds = accepted.map((answer) => (JSON.parse(answer.body) as { id: string }).id);
  expect(new Set(startedIds).size).toBe(affordable);

  const sessions = await allSessions(server.key);
  expect(sessions.map((session) => session.id).sort()).toEqual([...startedIds].sort());

  // The ledger: the starting top-up, then one charge of its estimate per session, nothing else.
  const ledger = ledgerOf(server.key);
  const topups = ledger.filter((row) => row.kind === 'topup');
  expect(topups.reduce((sum, row) => sum + row.credits, 0)).toBe(startingCredits);
  const charges = ledger.filter((row) => row.kind === 'charge');
  expect(charges).toHaveLength(affordable);
  expect(charges.every((row) => row.credits === -perStart)).toBe(true);
  expect(charges.map((row) => row.session_id).sort()).toEqual([...startedIds].sort());
  expect(ledger).toHaveLength(topups.length + affordable);
  const sum = ledger.reduce((balance, row) => balance + row.credits, 0);
  const estimates = sessions.reduce((spent, session) => spent + session.estimated_cost_credits, 0);
  expect(sum).toBe(startingCredits - estimates);
  expect(sum).toBe(0);
  expect(await getJson<{ balance_credits: number }>(server, '/credits')).toMatchObject({ balance_credits: sum });
});
