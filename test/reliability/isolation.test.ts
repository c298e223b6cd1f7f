/**
 * Workspaces and environments kept apart (docs/reliability.md "Workspaces and environments"; seed
 * "Authentication" 3: keys are scoped per workspace and per environment; the catalogue's `not-found`: a
 * resource of another workspace is answered as missing). Every operation of the contract that names a
 * resource, by a path id or an id in its body, is called with a key of one workspace and the ids of
 * another: each answer is `404`, and nothing in the store changes. Listings show none of the other
 * workspace's ids, and its cursors and idempotency keys mean nothing elsewhere. The same holds for a test
 * key and a live workspace.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { otherTestKey, startTestServer, testKey, type TestServer } from '../server/harness.js';
import { startReceiver, type Receiver } from '../server/receiver.js';
import {
  expectProblem,
  fillPath,
  operations,
  send,
  tableSnapshot,
  type ContractOperation,
} from './contract-requests.js';
import { idsByPrefix, populateWorkspace, type WorkspaceRecords } from './workspace-fixture.js';

const liveKey = 'sk_live_isolation0000000000000001';

let server: TestServer;
let receiver: Receiver;
let mine: WorkspaceRecords;
let other: WorkspaceRecords;
let live: WorkspaceRecords;

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [testKey, otherTestKey, liveKey] });
  receiver = await startReceiver();
  other = await populateWorkspace(server, otherTestKey, receiver.url);
  live = await populateWorkspace(server, liveKey, receiver.url);
  mine = await populateWorkspace(server, testKey, receiver.url);
});

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

/** Replaces every id in `value` by the victim's id of the same kind. */
function withIdsOf(value: unknown, ids: Map<string, string>): unknown {
  if (typeof value === 'string') {
    const prefix = /^([a-z]+_)[A-Za-z0-9]{8,}$/.exec(value)?.[1];
    return (prefix === undefined ? undefined : ids.get(prefix)) ?? value;
  }
  if (Array.isArray(value)) {
    return value.map((item) => withIdsOf(item, ids));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withIdsOf(item, ids)]));
  }
  return value;
}

/** The request of `operation` aimed at the victim's records, or `undefined` when it names none. */
function aimedAt(
  operation: ContractOperation,
  victim: WorkspaceRecords,
): { path: string; body: string | undefined } | undefined {
  const ids = idsByPrefix(victim);
  const candidates = [...ids.values()];
  const values = Object.fromEntries(
    operation.pathParameters.map(({ name, schemaPointer }) => {
      const id = candidates.find(
        (candidate) => server.server.services.validator.validate(schemaPointer, candidate).valid,
      );
      if (id === undefined) {
        throw new Error(`${operation.operationId}: no record fits {${name}}`);
      }
      return [name, id];
    }),
  );
  const body = operation.bodyExample === undefined ? undefined : JSON.stringify(withIdsOf(operation.bodyExample, ids));
  const namesVictim =
    operation.pathParameters.length > 0 || (body !== undefined && candidates.some((id) => body.includes(id)));
  return namesVictim ? { path: fillPath(operation.path, values), body } : undefined;
}

const aimed = operations.filter(
  (operation) =>
    operation.pathParameters.length > 0 || /"[a-z]+_[A-Za-z0-9]{8,}"/.test(JSON.stringify(operation.bodyExample ?? {})),
);
const listings = operations.filter(
  (operation) => operation.authenticated && operation.method === 'GET' && !aimed.includes(operation),
);

test('every other operation names no record: it creates from scratch, or needs no key', () => {
  const rest = operations.filter((operation) => !aimed.includes(operation) && !listings.includes(operation));
  for (const operation of rest) {
    expect(operation.method === 'POST' || !operation.authenticated, operation.operationId).toBe(true);
  }
  expect(aimed.length).toBeGreaterThan(listings.length);
});

describe.each([
  ['another workspace', (): string => testKey, (): WorkspaceRecords => other],
  ['a live workspace, with a test key', (): string => testKey, (): WorkspaceRecords => live],
  ['a test workspace, with a live key', (): string => liveKey, (): WorkspaceRecords => other],
] as const)('%s', (_, attackerKey, victimRecords) => {
  test.each(aimed)('$method $path with its ids is 404 and changes nothing', async (operation) => {
    const victim = victimRecords();
    const request = aimedAt(operation, victim);
    expect(request, `${operation.operationId} names a record`).toBeDefined();
    const before = tableSnapshot(server.server.services.store.db, ['rate_limit_windows', 'idempotency_records']);
    const headers = {
      authorization: `Bearer ${attackerKey()}`,
      ...(request?.body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    const answer = await send(server.baseUrl, {
      method: operation.method,
      path: request?.path ?? '',
      headers,
      body: request?.body,
    });
    expectProblem(answer, [404], `${operation.method} ${request?.path}`);
    for (const secret of [victim.signingSecret, victim.sharePassword, victim.key]) {
      expect(answer.text).not.toContain(secret);
    }
    await server.server.services.webhooks.dispatcher.idle();
    expect(tableSnapshot(server.server.services.store.db, ['rate_limit_windows', 'idempotency_records'])).toEqual(
      before,
    );
  });

  test.each(listings)('$method $path shows none of its ids', async (operation) => {
    const victim = victimRecords();
    const answer = await send(server.baseUrl, {
      method: 'GET',
      path: `${operation.path}?limit=100`,
      headers: { authorization: `Bearer ${attackerKey()}` },
    });
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    for (const id of [...idsByPrefix(victim).values(), victim.runningSessionId, victim.outcomeId]) {
      expect(answer.text).not.toContain(id);
    }
  });

  test("its cursors name no page of the caller's lists", async () => {
    const victim = victimRecords();
    const page = await server.request('/v1/sessions?limit=1', { key: victim.key });
    const cursor = ((await page.json()) as { next_cursor: string | null }).next_cursor;
    expect(cursor).not.toBeNull();
    const answer = await send(server.baseUrl, {
      method: 'GET',
      path: `/v1/sessions?limit=1&cursor=${encodeURIComponent(cursor ?? '')}`,
      headers: { authorization: `Bearer ${attackerKey()}` },
    });
    // Well-formed, but issued for another list: 404 like an unknown id (docs/decisions.md, cursors).
    expectProblem(answer, [404], 'a cursor of another workspace');
  });
});

test('an Idempotency-Key used in one workspace replays nothing in another', async () => {
  const body = { decision: 'Keep the price.' };
  const theirs = await server.request(`/v1/sessions/${other.sessionId}/decisions`, {
    method: 'POST',
    json: body,
    key: other.key,
    headers: { 'idempotency-key': 'shared-key-0001' },
  });
  expect(theirs.status).toBe(201);
  const theirDecision = (await theirs.json()) as { id: string };
  const ours = await server.request(`/v1/sessions/${mine.sessionId}/decisions`, {
    method: 'POST',
    json: body,
    key: mine.key,
    headers: { 'idempotency-key': 'shared-key-0001' },
  });
  expect(ours.status).toBe(201);
  expect(ours.headers.get('idempotent-replayed')).toBeNull();
  const ourDecision = (await ours.json()) as { id: string; session_id: string };
  expect(ourDecision.id).not.toBe(theirDecision.id);
  expect(ourDecision.session_id).toBe(mine.sessionId);
});
