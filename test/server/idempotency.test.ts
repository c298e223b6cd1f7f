/**
 * `Idempotency-Key` on writes (seed "Limits": a repeated key within 24 hours returns the original
 * response; the contract: per workspace, another body or a request in flight is `409 conflict`).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { requestHashOf } from '../../src/server/http/idempotency.js';
import { getJson, lineupStart, startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

function post(path: string, key: string, json: unknown, apiKey?: string): Promise<Response> {
  return server.request(path, {
    method: 'POST',
    json,
    headers: { 'idempotency-key': key },
    ...(apiKey === undefined ? {} : { key: apiKey }),
  });
}

async function sessionCount(apiKey?: string): Promise<number> {
  return (await getJson<{ items: unknown[] }>(server, '/v1/sessions?limit=100', apiKey)).items.length;
}

test('the same key and body replay the original status, body and Location, marked as a replay', async () => {
  const before = await sessionCount();
  const first = await post('/v1/sessions', 'replay-1', lineupStart());
  const firstBody = await first.text();
  const again = await post('/v1/sessions', 'replay-1', lineupStart());
  expect(again.status).toBe(first.status);
  expect(await again.text()).toBe(firstBody);
  expect(again.headers.get('location')).toBe(first.headers.get('location'));
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect(await sessionCount()).toBe(before + 1);
});

test('the body is compared by value: members in another order are the same body', async () => {
  const first = await post('/v1/sessions/plan', 'order-1', { mode: 'boardroom', rounds: 2 });
  await first.arrayBuffer();
  const again = await post('/v1/sessions/plan', 'order-1', { rounds: 2, mode: 'boardroom' });
  expect(again.status).toBe(200);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  await again.arrayBuffer();
});

test('the same key with another body is a 409 conflict', async () => {
  await (await post('/v1/sessions', 'mismatch-1', lineupStart(1))).arrayBuffer();
  const other = await post('/v1/sessions', 'mismatch-1', lineupStart(2));
  expect(other.status).toBe(409);
  expect(((await other.json()) as { detail: string }).detail).toMatch(/another request/);
});

test('a key still in flight is a 409 conflict', async () => {
  const { store } = server.server.services;
  const workspaceId = store.apiKeys.lookup(server.key)?.workspaceId ?? '';
  // A request holding the key, as another server process sharing the database would.
  const hash = requestHashOf('startSession', {}, lineupStart());
  expect(store.idempotency.claim(workspaceId, 'in-flight-1', hash, server.clock.now()).outcome).toBe('claimed');
  const response = await post('/v1/sessions', 'in-flight-1', lineupStart());
  expect(response.status).toBe(409);
  expect(((await response.json()) as { detail: string }).detail).toMatch(/still being processed/);
});

test('keys are scoped per workspace', async () => {
  const mine = await post('/v1/sessions', 'shared-key', lineupStart());
  const theirs = await post('/v1/sessions', 'shared-key', lineupStart(), server.otherKey);
  expect(theirs.status).toBe(202);
  expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  expect(await theirs.text()).not.toBe(await mine.text());
});

test('errors are replayed too, and a delete replays its 204', async () => {
  const missing = 'ses_00000000000000000000000000';
  const first = await server.request(`/v1/sessions/${missing}`, {
    method: 'DELETE',
    headers: { 'idempotency-key': 'delete-1' },
  });
  expect(first.status).toBe(404);
  await first.arrayBuffer();
  const again = await server.request(`/v1/sessions/${missing}`, {
    method: 'DELETE',
    headers: { 'idempotency-key': 'delete-1' },
  });
  expect(again.status).toBe(404);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  await again.arrayBuffer();
});

test('after 24 hours of server time the key starts afresh', async () => {
  const first = await post('/v1/sessions/plan', 'window-1', { mode: 'boardroom' });
  await first.arrayBuffer();
  server.clock.advance(24 * 60 * 60 * 1000 + 1);
  const later = await post('/v1/sessions/plan', 'window-1', { mode: 'the_arena' });
  expect(later.status).toBe(200);
  expect(later.headers.get('idempotent-replayed')).toBeNull();
  expect(((await later.json()) as { mode: string }).mode).toBe('the_arena');
});

test('a request that fails validation does not take the key', async () => {
  const invalid = await post('/v1/sessions/plan', 'invalid-1', { mode: 'boardroom', rounds: 99 });
  expect(invalid.status).toBe(400);
  await invalid.arrayBuffer();
  const valid = await post('/v1/sessions/plan', 'invalid-1', { mode: 'boardroom' });
  expect(valid.status).toBe(200);
  expect(valid.headers.get('idempotent-replayed')).toBeNull();
  await valid.arrayBuffer();
});
