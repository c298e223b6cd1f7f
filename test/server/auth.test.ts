/**
 * Bearer authentication, workspaces kept apart, the tier gate and key rotation with its 24-hour grace
 * (seed "Authentication"; "Limits": old key validity after rotation).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { aWholeRun, getJson, startSession, startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

describe('bearer authentication', () => {
  test.each([
    ['no Authorization header', null],
    ['an unknown key', 'sk_test_unknownunknownunknown01'],
    ['a string that is not a key', 'hello'],
  ])('%s is a 401 problem', async (_, key) => {
    const response = await server.request('/v1/sessions', { key });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { type: string }).type).toMatch(/\/unauthorized$/);
  });

  test('a scheme other than Bearer is a 401 problem; the scheme is case-insensitive', async () => {
    const basic = await server.request('/v1/sessions', { headers: { authorization: `Basic ${server.key}` } });
    expect(basic.status).toBe(401);
    await basic.arrayBuffer();
    const lower = await server.request('/v1/sessions', { headers: { authorization: `bearer ${server.key}` } });
    expect(lower.status).toBe(200);
    await lower.arrayBuffer();
  });

  test('the health probe needs no key', async () => {
    const response = await server.request('/v1/health', { key: null });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', api_version: '2026-10-01' });
  });

  test('a session records the redacted form of the key that started it', async () => {
    const id = await startSession(server);
    const session = await getJson<{ key_hint: string }>(server, `/v1/sessions/${id}`);
    expect(session.key_hint).toBe(`sk_test_...${server.key.slice(-4)}`);
  });
});

describe('workspaces', () => {
  let mine: string;

  beforeAll(async () => {
    mine = await startSession(server);
    server.clock.advance(aWholeRun);
  });

  test("another workspace's session is 404 on every path, never 403", async () => {
    for (const path of [
      `/v1/sessions/${mine}`,
      `/v1/sessions/${mine}/events?finite=true`,
      `/v1/sessions/${mine}/summary?finite=true`,
      `/v1/sessions/${mine}/outcomes`,
      `/v1/sessions/${mine}/shares`,
      `/v1/sessions/${mine}/plan`,
    ]) {
      const response = await server.request(path, { key: server.otherKey });
      expect(response.status, path).toBe(404);
      await response.arrayBuffer();
    }
    const cancel = await server.request(`/v1/sessions/${mine}/archive`, { method: 'POST', key: server.otherKey });
    expect(cancel.status).toBe(404);
    await cancel.arrayBuffer();
  });

  test("another workspace's sessions never appear in its list", async () => {
    const theirs = await getJson<{ items: Array<{ id: string }> }>(server, '/v1/sessions?limit=100', server.otherKey);
    expect(theirs.items.map((item) => item.id)).not.toContain(mine);
    const own = await getJson<{ items: Array<{ id: string }> }>(server, '/v1/sessions?limit=100');
    expect(own.items.map((item) => item.id)).toContain(mine);
  });

  test("a share of another workspace's session cannot be listed or revoked", async () => {
    const created = await server.request(`/v1/sessions/${mine}/shares`, { method: 'POST', json: { access: 'public' } });
    const share = (await created.json()) as { id: string };
    const revoke = await server.request(`/v1/sessions/${mine}/shares/${share.id}/revoke`, {
      method: 'POST',
      key: server.otherKey,
    });
    expect(revoke.status).toBe(404);
    await revoke.arrayBuffer();
  });

  test('each workspace has its own credit pool and integrations', async () => {
    const ownCredits = await getJson<{ balance_credits: number }>(server, '/credits');
    const otherCredits = await getJson<{ balance_credits: number }>(server, '/credits', server.otherKey);
    expect(otherCredits.balance_credits).toBe(10_000);
    expect(ownCredits.balance_credits).toBeLessThan(10_000);
    const own = await getJson<{ items: Array<{ id: string }> }>(server, '/integrations');
    const other = await getJson<{ items: Array<{ id: string }> }>(server, '/integrations', server.otherKey);
    expect(own.items.map((item) => item.id)).not.toEqual(expect.arrayContaining(other.items.map((item) => item.id)));
  });
});

describe('key rotation', () => {
  test('the old key stays valid for 24 hours of server time, then is refused', async () => {
    const rotated = server.server.services.store.apiKeys.rotate(server.otherKey, server.clock.now());
    expect(rotated.secret).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    const before = await server.request('/v1/sessions', { key: server.otherKey });
    expect(before.status).toBe(200);
    await before.arrayBuffer();
    const fresh = await server.request('/v1/sessions', { key: rotated.secret });
    expect(fresh.status).toBe(200);
    await fresh.arrayBuffer();

    server.clock.advance(24 * 60 * 60 * 1000 - 1000);
    const late = await server.request('/v1/sessions', { key: server.otherKey });
    expect(late.status).toBe(200);
    await late.arrayBuffer();

    server.clock.advance(1000);
    const expired = await server.request('/v1/sessions', { key: server.otherKey });
    expect(expired.status).toBe(401);
    await expired.arrayBuffer();
    const still = await getJson<{ balance_credits: number }>(server, '/credits', rotated.secret);
    expect(still.balance_credits).toBe(10_000);
  });
});

describe('tiers', () => {
  test('a workspace below Ultra gets 403 tier-required; the health probe still answers', async () => {
    const pro = await startTestServer({ tier: 'pro' });
    try {
      const response = await pro.request('/v1/sessions');
      expect(response.status).toBe(403);
      expect(((await response.json()) as { type: string }).type).toMatch(/\/tier-required$/);
      const health = await pro.request('/v1/health', { key: null });
      expect(health.status).toBe(200);
      await health.arrayBuffer();
    } finally {
      await pro.stop();
    }
  });
});
