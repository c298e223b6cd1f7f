/**
 * The control plane's key routes (docs/conformance.md "Time control and fault switches"): workspaces of
 * a chosen tier and balance provisioned with a new key, optionally with a legacy webhook URL, and keys
 * rotated with the 24-hour grace. Real HTTP on 127.0.0.1 against the server with response validation on.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';

const day = 24 * 3_600_000;
let plain: RunningServer;
let controlled: RunningServer;

function control(server: RunningServer, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
}

function api(key: string, path: string): Promise<Response> {
  return fetch(`${controlled.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
}

async function provision(body: unknown): Promise<Record<string, unknown>> {
  const response = await control(controlled, 'POST', '/_test/keys', body);
  expect(response.status).toBe(201);
  return (await response.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  const common = {
    db: ':memory:',
    apiKeys: ['sk_test_control00000000000000001'],
    validateResponses: true,
    onError: () => undefined,
  };
  [plain, controlled] = await Promise.all([startServer(common), startServer({ ...common, testControl: true })]);
});

afterAll(async () => {
  await Promise.all([plain?.close(), controlled?.close()]);
  expect([...plain.violations, ...controlled.violations]).toEqual([]);
});

describe('POST /_test/keys', () => {
  test('is an unknown route without --test-control', async () => {
    expect((await control(plain, 'POST', '/_test/keys', {})).status).toBe(404);
  });

  test('provisions a workspace of the tier and balance asked for, with a new key', async () => {
    const pro = await provision({ tier: 'pro' });
    expect(pro).toMatchObject({ api_key: expect.stringMatching(/^sk_test_/), tier: 'pro', balance_credits: 10_000 });
    const refused = await api(String(pro['api_key']), '/v1/sessions');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ type: 'https://problems.decision-board.example/tier-required' });

    const poor = await provision({ credits: 7 });
    const credits = (await (await api(String(poor['api_key']), '/credits')).json()) as {
      balance_credits: number;
      tier: string;
    };
    expect(credits).toMatchObject({ balance_credits: 7, tier: 'ultra' });
  });

  test('configures a legacy webhook URL on the key and returns its secret', async () => {
    const key = await provision({ legacy_webhook_url: 'https://hooks.example.com/legacy' });
    expect(key['legacy_webhook_secret']).toMatch(/^whsec_[A-Za-z0-9]{16,128}$/);
    expect(
      controlled.services.webhooks.outbox.getTarget(
        String(controlled.services.store.apiKeys.lookup(String(key['api_key']))?.id),
      ),
    ).toMatchObject({ kind: 'legacy', url: 'https://hooks.example.com/legacy', events: ['session.complete'] });
  });

  test('refuses settings it does not know with problems pointing at them, and other methods with 405', async () => {
    for (const [body, pointer] of [
      [{ tier: 'platinum' }, '#/body/tier'],
      [{ credits: -1 }, '#/body/credits'],
      [{ colour: 'red' }, '#/body/colour'],
      [{ legacy_webhook_url: 'ftp://x' }, '#/body/legacy_webhook_url'],
    ] as const) {
      const response = await control(controlled, 'POST', '/_test/keys', body);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await response.json()) as { errors: Array<{ pointer: string }> }).errors[0]?.pointer).toBe(pointer);
    }
    const other = await control(controlled, 'GET', '/_test/keys');
    expect(other.status).toBe(405);
    expect(other.headers.get('allow')).toBe('POST');
  });
});

describe('POST /_test/keys/rotate', () => {
  test('issues a new key in the same workspace; the old one works for 24 hours, then 401', async () => {
    const old = String((await provision({}))['api_key']);
    const response = await control(controlled, 'POST', '/_test/keys/rotate', { api_key: old });
    expect(response.status).toBe(201);
    const rotated = (await response.json()) as { api_key: string; old_key_expires_at: string };
    const now = Date.parse(((await (await control(controlled, 'GET', '/_test/clock')).json()) as { now: string }).now);
    expect(Date.parse(rotated.old_key_expires_at) - now).toBeGreaterThan(day - 60_000);
    expect((await api(rotated.api_key, '/credits')).status).toBe(200);
    expect((await api(old, '/credits')).status).toBe(200);
    await control(controlled, 'PUT', '/_test/clock', { advance_ms: day + 1_000 });
    expect((await api(old, '/credits')).status).toBe(401);
    expect((await api(rotated.api_key, '/credits')).status).toBe(200);
  });

  test('refuses a key it does not know', async () => {
    const response = await control(controlled, 'POST', '/_test/keys/rotate', {
      api_key: 'sk_test_neverprovisioned000001',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: Array<{ pointer: string }> }).errors[0]?.pointer).toBe(
      '#/body/api_key',
    );
  });
});
