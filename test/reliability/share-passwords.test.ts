/**
 * Share passwords and the other secret comparisons (docs/reliability.md "Share passwords"). A protected
 * link's password is kept only as a salted scrypt hash (RFC 7914); the share page compares a guess with
 * `crypto.timingSafeEqual` over two digests of one fixed length, whatever was typed, for right and wrong
 * guesses alike; and wrong guesses are limited per link, on the server clock. Pagination cursors are
 * checked the same way. Timing is not measured (a test cannot do so reliably): Node's own `timingSafeEqual`
 * does the work and the wrapper (test/support/timing-safe-equal.ts) only records its calls.
 *
 * API keys are not compared at all: a key is found by its SHA-256 digest in the store's index, so what
 * any timing could reveal is part of a digest, which does not help to build a key.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { Comparison } from '../support/timing-safe-equal.js';

const comparisons = vi.hoisted(() => ({ calls: [] as Comparison[] }));

vi.mock('node:crypto', async (importOriginal) => {
  const { recordingCrypto } = await import('../support/timing-safe-equal.js');
  return recordingCrypto(await importOriginal<typeof import('node:crypto')>(), comparisons.calls);
});

const { aWholeRun, lineupStart, startSession, startTestServer } = await import('../server/harness.js');
const { passwordGuessLimit, passwordGuessWindowMs } = await import('../../src/server/domain/share-viewer/views.js');

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

let server: TestServer;
let sessionId: string;

beforeAll(async () => {
  server = await startTestServer();
  sessionId = await startSession(server, lineupStart(1));
  server.clock.advance(aWholeRun);
});

afterAll(async () => {
  await server?.stop();
});

beforeEach(() => {
  comparisons.calls.length = 0;
});

async function protectedShare(password: string): Promise<{ id: string; token: string }> {
  const response = await server.request(`/v1/sessions/${sessionId}/shares`, {
    method: 'POST',
    json: { access: 'password', password },
  });
  expect(response.status).toBe(201);
  const share = (await response.json()) as { id: string; url: string };
  return { id: share.id, token: share.url.slice(share.url.lastIndexOf('/') + 1) };
}

async function guess(
  token: string,
  password: string,
): Promise<{ status: number; retryAfter: string | null; html: string }> {
  const response = await fetch(`${server.baseUrl}/s/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password }).toString(),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), html: await response.text() };
}

describe('share passwords', () => {
  test('are stored as salted scrypt hashes only: two links with one password hash differently', async () => {
    const password = 'amber-falcon-1987';
    const first = await protectedShare(password);
    const second = await protectedShare(password);
    const hashes = [first.id, second.id].map((id) => server.server.services.store.shares.passwordHashOf(id));
    for (const hash of hashes) {
      expect(hash).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    }
    expect(hashes[0]).not.toBe(hashes[1]);
    const rows = server.server.services.store.db.prepare('SELECT * FROM shares').all();
    expect(JSON.stringify(rows)).not.toContain(password);
  });

  test('a guess is compared in constant time over 32-byte digests, whatever its length, right or wrong', async () => {
    const share = await protectedShare('amber-falcon-1987');
    expect((await guess(share.token, 'x')).status).toBe(403);
    expect((await guess(share.token, 'a much longer wrong guess than the password itself')).status).toBe(403);
    expect((await guess(share.token, 'amber-falcon-1987')).status).toBe(200);
    expect(comparisons.calls).toEqual([
      { left: 32, right: 32, equal: false },
      { left: 32, right: 32, equal: false },
      { left: 32, right: 32, equal: true },
    ]);
  });

  test(`after ${passwordGuessLimit} wrong guesses the link refuses every password, unchecked, until its window ends`, async () => {
    const share = await protectedShare('amber-falcon-1987');
    const neighbour = await protectedShare('amber-falcon-1987');
    // Start at the beginning of a window, so that the whole allowance is spent inside one.
    server.clock.advance(passwordGuessWindowMs - (server.clock.now() % passwordGuessWindowMs));
    for (let attempt = 1; attempt <= passwordGuessLimit; attempt += 1) {
      expect((await guess(share.token, `wrong-${attempt}`)).status).toBe(403);
    }
    comparisons.calls.length = 0;
    const refused = await guess(share.token, 'amber-falcon-1987');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(passwordGuessWindowMs / 1000);
    expect(comparisons.calls).toEqual([]);
    // Another link is not affected.
    expect((await guess(neighbour.token, 'amber-falcon-1987')).status).toBe(200);

    server.clock.advance(Number(refused.retryAfter) * 1000 - 1000);
    expect((await guess(share.token, 'amber-falcon-1987')).status).toBe(429);
    server.clock.advance(1000);
    expect((await guess(share.token, 'amber-falcon-1987')).status).toBe(200);
  });

  test('no page or listing shows the password or its hash', async () => {
    const share = await protectedShare('amber-falcon-1987');
    const pages = [
      await guess(share.token, 'wrong'),
      await guess(share.token, 'amber-falcon-1987'),
      { html: await (await fetch(`${server.baseUrl}/s/${share.token}`)).text() },
      { html: await (await server.request(`/v1/sessions/${sessionId}/shares?limit=100`)).text() },
    ];
    for (const page of pages) {
      expect(page.html).not.toContain('amber-falcon-1987');
      expect(page.html).not.toContain('scrypt$');
    }
  });
});

describe('pagination cursors', () => {
  test('an altered cursor is refused after a constant-time comparison of equal-length signatures', async () => {
    await startSession(server, lineupStart(1));
    const page = (await (await server.request('/v1/sessions?limit=1')).json()) as { next_cursor: string };
    const [payload, signature = ''] = page.next_cursor.split('.');
    const altered = `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    comparisons.calls.length = 0;
    const response = await server.request(`/v1/sessions?limit=1&cursor=${encodeURIComponent(altered)}`);
    expect([400, 404]).toContain(response.status);
    await response.arrayBuffer();
    expect(comparisons.calls).toEqual([{ left: signature.length, right: signature.length, equal: false }]);
  });
});
