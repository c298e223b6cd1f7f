/**
 * API keys over their lifetime (docs/reliability.md "Key lifetime"; seed "Authentication" 3 and 4,
 * "Limits": the old key stays valid for 24 hours after a rotation). Driven by the manual clock: a rotated
 * key works up to the last millisecond of its grace and not at the end of it, a revoked key stops at once,
 * an event stream opened with a key ends with it, neither key comes back after a restart, and a workspace
 * holds the keys of one environment only, so that no test key can ever be a key of a live workspace.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rotationGraceMs } from '../../src/server/store/api-keys.js';
import { startTestServer, testKey, waitFor, waitForTimer, type TestServer } from '../server/harness.js';
import { expectProblem, send } from './contract-requests.js';

const liveKey = 'sk_live_keys000000000000000000001';
const spareKey = 'sk_test_keys000000000000000000002';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [testKey, liveKey, spareKey], keepDb: true });
});

afterAll(async () => {
  await server?.stop();
  rmSync(dirname(server.dbFile), { recursive: true, force: true });
});

const store = () => server.server.services.store;

/** The status of an authenticated read with `key`; a refusal must be the catalogue's 401. */
async function statusWith(key: string): Promise<number> {
  const answer = await send(server.baseUrl, {
    method: 'GET',
    path: '/credits',
    headers: { authorization: `Bearer ${key}` },
  });
  if (answer.status !== 200) {
    expectProblem(answer, [401], `GET /credits with ${key.slice(0, 12)}…`);
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(answer.text).not.toContain(key);
  }
  return answer.status;
}

/** The event stream of `sessionId` opened with `key`, once the server is waiting to write more. */
async function openStream(sessionId: string, key: string): Promise<{ next(): Promise<string | undefined> }> {
  const before = server.clock.pending();
  const response = await fetch(`${server.baseUrl}/v1/sessions/${sessionId}/events`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  await waitForTimer(server, before);
  return {
    /** The next chunk written, or `undefined` once the stream has ended; fails when neither comes. */
    async next() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error('the stream neither wrote nor ended')), 5_000);
      });
      try {
        const chunk = await Promise.race([reader.read(), timeout]);
        return chunk.done ? undefined : decoder.decode(chunk.value);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** A consult session: it waits for its first turn, so its event stream stays open with heartbeats only. */
async function idleSession(): Promise<string> {
  const response = await server.request('/v1/sessions', {
    method: 'POST',
    json: { question: 'How do we price the EU plan?', session_type: 'consult', synth_id: 'cfo' },
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { session_id: string }).session_id;
}

describe('test and live keys', () => {
  test('each provisioned key has a workspace of its own environment', () => {
    const testWorkspace = store().apiKeys.lookup(testKey);
    const liveWorkspace = store().apiKeys.lookup(liveKey);
    expect(testWorkspace).toMatchObject({ environment: 'test' });
    expect(liveWorkspace).toMatchObject({ environment: 'live' });
    expect(testWorkspace?.workspaceId).not.toBe(liveWorkspace?.workspaceId);
  });

  test('a live workspace refuses a test key, and a test workspace a live one', () => {
    const now = server.clock.now();
    const live = store().apiKeys.lookup(liveKey)?.workspaceId ?? '';
    const test = store().apiKeys.lookup(testKey)?.workspaceId ?? '';
    expect(() => store().apiKeys.add(live, 'sk_test_sneakin000000000000000001', now)).toThrow(/holds live keys/);
    expect(() => store().apiKeys.add(live, 'mcp_test_sneakin00000000000000001', now)).toThrow(/holds live keys/);
    expect(() => store().apiKeys.add(test, 'sk_live_sneakin000000000000000001', now)).toThrow(/holds test keys/);
    expect(store().apiKeys.lookup('sk_test_sneakin000000000000000001')).toBeUndefined();
    // The other prefix form of the same environment is the same kind of key.
    expect(store().apiKeys.add(live, 'mcp_live_second00000000000000001', now)).toMatchObject({
      environment: 'live',
      workspaceId: live,
    });
  });

  test('rotating a live key issues a live key in the same workspace', () => {
    const rotated = store().apiKeys.rotate('mcp_live_second00000000000000001', server.clock.now());
    expect(rotated.secret).toMatch(/^mcp_live_[A-Za-z0-9]{32}$/);
    expect(rotated.key.workspaceId).toBe(store().apiKeys.lookup(liveKey)?.workspaceId);
  });

  test('the published prefix forms name their environment, keep it across a rotation, and a hint shows the prefix', () => {
    const now = server.clock.now();
    const live = store().apiKeys.lookup(liveKey)?.workspaceId ?? '';
    // sk_<brand>_test_ is a test key whatever the brand; <two letters>_live_ a live one.
    expect(() => store().apiKeys.add(live, 'sk_synth_test_sneakin0000000000001', now)).toThrow(/holds live keys/);
    expect(store().apiKeys.add(live, 'sk_synth_live_branded0000000000001', now)).toMatchObject({
      environment: 'live',
      hint: 'sk_synth_live_...0001',
    });
    expect(store().apiKeys.add(live, 'sy_live_twoletters00000000000001', now)).toMatchObject({
      environment: 'live',
      hint: 'sy_live_...0001',
    });
    const rotated = store().apiKeys.rotate('sk_synth_live_branded0000000000001', now);
    expect(rotated.secret).toMatch(/^sk_synth_live_[A-Za-z0-9]{32}$/);
    // Still not keys: no environment word, or a secret too short.
    expect(() => store().apiKeys.add(live, 'sk_synth_prod_0000000000000001', now)).toThrow(
      /prefix naming the environment/,
    );
    expect(() => store().apiKeys.add(live, 'sk_live_short', now)).toThrow(/prefix naming the environment/);
  });
});

describe('rotation', () => {
  test('the old key works until the last millisecond of its 24 hours, the new one throughout', async () => {
    const rotatedAt = server.clock.now();
    const { secret: fresh, oldKeyExpiresAt } = store().apiKeys.rotate(spareKey, rotatedAt);
    expect(oldKeyExpiresAt).toBe(rotatedAt + rotationGraceMs);
    expect(await statusWith(spareKey)).toBe(200);
    expect(await statusWith(fresh)).toBe(200);

    server.clock.advance(60 * 60 * 1000);
    // Rotating the old key again inside its grace issues another key but does not extend the grace.
    const again = store().apiKeys.rotate(spareKey, server.clock.now());
    expect(again.oldKeyExpiresAt).toBe(oldKeyExpiresAt);

    server.clock.advance(oldKeyExpiresAt - server.clock.now() - 1);
    expect(await statusWith(spareKey)).toBe(200);
    server.clock.advance(1);
    expect(await statusWith(spareKey)).toBe(401);
    expect(await statusWith(fresh)).toBe(200);
    expect(await statusWith(again.secret)).toBe(200);
    expect(() => store().apiKeys.rotate(spareKey, server.clock.now())).toThrow(/expired/);
  });
});

describe('revocation', () => {
  test('a revoked key stops at once; a rotated key revoked inside its grace too', async () => {
    const key = 'sk_test_revokeme0000000000000001';
    const workspaceId = store().apiKeys.lookup(testKey)?.workspaceId ?? '';
    const added = store().apiKeys.add(workspaceId, key, server.clock.now());
    expect(await statusWith(key)).toBe(200);
    expect(store().apiKeys.revoke(added.id, server.clock.now())).toBe(true);
    expect(await statusWith(key)).toBe(401);

    const graced = 'sk_test_revokeme0000000000000002';
    store().apiKeys.add(workspaceId, graced, server.clock.now());
    const { secret: successor } = store().apiKeys.rotate(graced, server.clock.now());
    expect(await statusWith(graced)).toBe(200);
    store().apiKeys.revoke(store().apiKeys.lookup(graced)?.id ?? '', server.clock.now());
    expect(await statusWith(graced)).toBe(401);
    expect(await statusWith(successor)).toBe(200);
    // Revoking again changes nothing; an ended key keeps its end.
    expect(store().apiKeys.revoke(added.id, server.clock.now() + 1)).toBe(false);
    expect(await statusWith(testKey)).toBe(200);
  });

  test('an open event stream ends when its key does: before its next write after a revocation or the end of a grace', async () => {
    const workspaceId = store().apiKeys.lookup(testKey)?.workspaceId ?? '';
    const revoked = 'sk_test_streamkey0000000000000001';
    const added = store().apiKeys.add(workspaceId, revoked, server.clock.now());
    const rotated = 'sk_test_streamkey0000000000000002';
    store().apiKeys.add(workspaceId, rotated, server.clock.now());
    const sessionId = await idleSession();
    const { heartbeatMs } = server.server.services.settings;

    const revokedStream = await openStream(sessionId, revoked);
    server.clock.advance(heartbeatMs);
    expect(await revokedStream.next()).toBe(': heartbeat\n\n');
    store().apiKeys.revoke(added.id, server.clock.now());
    server.clock.advance(heartbeatMs);
    expect(await revokedStream.next()).toBeUndefined();
    expect(await statusWith(revoked)).toBe(401);

    const { oldKeyExpiresAt } = store().apiKeys.rotate(rotated, server.clock.now());
    const rotatedStream = await openStream(sessionId, rotated);
    const before = server.clock.pending();
    server.clock.advance(oldKeyExpiresAt - server.clock.now() - 1);
    expect(await rotatedStream.next()).toBe(': heartbeat\n\n');
    // The heartbeat timer fired; wait until the stream has set the next one.
    await waitFor(() => server.clock.pending() >= before);
    server.clock.advance(heartbeatMs);
    expect(await rotatedStream.next()).toBeUndefined();
    expect(await statusWith(rotated)).toBe(401);
  });

  test('revoked and expired keys stay refused after a restart on the same store', async () => {
    const revoked = 'sk_test_revokeme0000000000000003';
    const workspaceId = store().apiKeys.lookup(testKey)?.workspaceId ?? '';
    const added = store().apiKeys.add(workspaceId, revoked, server.clock.now());
    store().apiKeys.revoke(added.id, server.clock.now());
    const { dbFile, clock } = server;
    await server.stop();
    server = await startTestServer({ apiKeys: [testKey], dbFile, clock, keepDb: true });
    expect(await statusWith(revoked)).toBe(401);
    expect(await statusWith(spareKey)).toBe(401);
    expect(await statusWith(testKey)).toBe(200);
  });
});
