/**
 * The share page (`{base_url}/s/{token}`), where share links open: a public link shows the session, a
 * protected one after its password; each view counts on the link and is announced with `share.viewed` to
 * the owning workspace's subscriptions only; wrong passwords are limited per link on the server clock;
 * revoked, expired and unknown links show nothing. Real HTTP, a real receiver, the manual clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { passwordGuessLimit, passwordGuessWindowMs } from '../../src/server/domain/share-viewer/views.js';
import { verifyDelivery } from '../../src/webhooks/signing.js';
import { aWholeRun, getJson, lineupStart, settle, startSession, startTestServer, type TestServer } from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

interface Share {
  id: string;
  url: string;
  view_count: number;
  last_viewed_at: string | null;
}

const title = 'Raise <b>Team</b> & "Pro" prices';
let server: TestServer;
let ours: Receiver;
let theirs: Receiver;
let signingSecret: string;
let sessionId: string;

beforeAll(async () => {
  server = await startTestServer();
  [ours, theirs] = await Promise.all([startReceiver(), startReceiver()]);
  const subscribe = async (receiver: Receiver, key: string): Promise<string> => {
    const response = await server.request('/v1/webhooks', {
      method: 'POST',
      key,
      json: { label: 'Views', url: receiver.url, events: ['share.viewed'] },
    });
    return ((await response.json()) as { signing_secret: string }).signing_secret;
  };
  signingSecret = await subscribe(ours, server.key);
  await subscribe(theirs, server.otherKey);
  sessionId = await startSession(server, lineupStart(1, { title }));
  server.clock.advance(aWholeRun);
});

afterAll(async () => {
  await server.stop();
  await Promise.all([ours.close(), theirs.close()]);
});

async function createShare(json: Record<string, unknown>): Promise<Share & { token: string }> {
  const response = await server.request(`/v1/sessions/${sessionId}/shares`, { method: 'POST', json });
  expect(response.status).toBe(201);
  const share = (await response.json()) as Share;
  return { ...share, token: share.url.split('/s/')[1] ?? '' };
}

function page(token: string, password?: string, init: RequestInit = {}): Promise<Response> {
  const form = password === undefined ? {} : { method: 'POST', body: new URLSearchParams({ password }) };
  return fetch(`${server.baseUrl}/s/${token}`, { ...form, ...init });
}

async function stored(share: Share): Promise<Share> {
  const list = await getJson<{ items: Share[] }>(server, `/v1/sessions/${sessionId}/shares?limit=100`);
  const found = list.items.find((item) => item.id === share.id);
  if (found === undefined) {
    throw new Error(`share ${share.id} is not listed`);
  }
  return found;
}

describe('a public link', () => {
  test('shows the session read-only, counts the view and tells the owning workspace', async () => {
    const share = await createShare({ access: 'public' });
    const response = await page(share.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await response.text();
    expect(html).toContain('Raise &lt;b&gt;Team&lt;/b&gt; &amp; &quot;Pro&quot; prices');
    expect(html).not.toContain('<b>Team</b>');
    expect(html).toContain('<h2>Verdict</h2>');
    expect(html).toContain('Views of this link: 1.');

    const viewedAt = new Date(server.clock.now()).toISOString();
    expect(await stored(share)).toMatchObject({ view_count: 1, last_viewed_at: viewedAt });
    expect(await (await page(share.token)).text()).toContain('Views of this link: 2.');
    await settle(server, 1_000);
    const views = ours.deliveries.filter((delivery) => delivery.body.data['share_id'] === share.id);
    expect(views.map((delivery) => delivery.body)).toEqual([
      expect.objectContaining({
        event: 'share.viewed',
        data: { share_id: share.id, session_id: sessionId, view_count: 1, viewed_at: viewedAt },
      }),
      expect.objectContaining({ event: 'share.viewed', data: expect.objectContaining({ view_count: 2 }) }),
    ]);
    const [first] = views;
    expect(
      verifyDelivery({
        secret: signingSecret,
        rawBody: first?.rawBody ?? '',
        headers: first?.headers ?? {},
        now: server.wallClock.now(),
      }),
    ).toEqual({ ok: true });
    expect(theirs.deliveries).toEqual([]);
  });

  test('another workspace cannot list, revoke or see views of it through the API', async () => {
    const share = await createShare({ access: 'public' });
    await (await page(share.token)).arrayBuffer();
    for (const [path, method] of [
      [`/v1/sessions/${sessionId}/shares`, 'GET'],
      [`/v1/sessions/${sessionId}/shares/${share.id}/revoke`, 'POST'],
    ] as const) {
      const response = await server.request(path, { method, key: server.otherKey });
      expect(response.status).toBe(404);
      const body = JSON.stringify(await response.json());
      expect(body).not.toContain(share.token);
      expect(body).not.toContain('view_count');
    }
    const mine = await getJson<{ items: Array<{ id: string }> }>(server, '/v1/sessions?limit=100', server.otherKey);
    expect(mine.items.map((item) => item.id)).not.toContain(sessionId);
    expect(await stored(share)).toMatchObject({ view_count: 1 });
  });
});

describe('a password link', () => {
  test('asks for the password, shows the session only with the right one, and counts only that view', async () => {
    const share = await createShare({ access: 'password', password: 'correct horse battery' });
    const form = await page(share.token);
    expect(form.status).toBe(200);
    const formHtml = await form.text();
    expect(formHtml).toContain('<form method="post">');
    expect(formHtml).not.toContain('Verdict');
    const wrong = await page(share.token, 'incorrect horse');
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain(`${passwordGuessLimit - 1} more tries`);
    expect(await stored(share)).toMatchObject({ view_count: 0, last_viewed_at: null });

    const right = await page(share.token, 'correct horse battery');
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('<h2>Verdict</h2>');
    expect(await stored(share)).toMatchObject({ view_count: 1 });
  });

  test(`after ${passwordGuessLimit} wrong passwords in a window every password is refused with 429 until it ends`, async () => {
    const share = await createShare({ access: 'password', password: 'correct horse battery' });
    for (let guess = 1; guess <= passwordGuessLimit; guess += 1) {
      const response = await page(share.token, `guess ${guess}`);
      expect(response.status).toBe(403);
      const left = passwordGuessLimit - guess;
      expect(await response.text()).toContain(
        left === 0 ? 'pauses further tries' : `${left} more ${left === 1 ? 'try' : 'tries'}`,
      );
    }
    const now = server.clock.now();
    const windowEnd = (Math.floor(now / passwordGuessWindowMs) + 1) * passwordGuessWindowMs;
    const limited = await page(share.token, 'correct horse battery');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe(String(Math.ceil((windowEnd - now) / 1000)));
    expect(await limited.text()).not.toContain('Verdict');
    expect(await stored(share)).toMatchObject({ view_count: 0 });

    // Another link keeps its own allowance.
    const other = await createShare({ access: 'password', password: 'correct horse battery' });
    expect((await page(other.token, 'correct horse battery')).status).toBe(200);

    server.clock.set(windowEnd);
    const after = await page(share.token, 'correct horse battery');
    expect(after.status).toBe(200);
    await after.arrayBuffer();
    expect(await stored(share)).toMatchObject({ view_count: 1 });
  });

  test('a form that is not form-encoded or has no password gets a problem', async () => {
    const share = await createShare({ access: 'password', password: 'correct horse battery' });
    const json = await page(share.token, undefined, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"password":"x"}',
    });
    expect(json.status).toBe(415);
    expect(json.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    await json.arrayBuffer();
    const empty = await page(share.token, undefined, { method: 'POST', body: new URLSearchParams({ pass: 'x' }) });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ status: 400, errors: [{ pointer: '#/body/password' }] });
    const put = await page(share.token, undefined, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    await put.arrayBuffer();
  });
});

describe('links that show nothing', () => {
  test('a revoked or expired link is 410, an unknown one 404, and none counts a view', async () => {
    const revoked = await createShare({ access: 'public' });
    await (
      await server.request(`/v1/sessions/${sessionId}/shares/${revoked.id}/revoke`, { method: 'POST' })
    ).arrayBuffer();
    const expiresAt = new Date(server.clock.now() + 60_000).toISOString();
    const expiring = await createShare({
      access: 'password',
      password: 'correct horse battery',
      expires_at: expiresAt,
    });
    expect((await page(expiring.token)).status).toBe(200);
    server.clock.advance(60_000);

    for (const [token, status, text] of [
      [revoked.token, 410, 'revoked'],
      [expiring.token, 410, 'expired'],
      ['q7Xk2LmP9vRt4WzA8nBcq7Xk2LmP9vRt', 404, 'No such link'],
      ['short', 404, 'No such link'],
    ] as const) {
      for (const response of [await page(token), await page(token, 'correct horse battery')]) {
        expect(response.status).toBe(status);
        expect(await response.text()).toContain(text);
      }
    }
    expect(await stored(revoked)).toMatchObject({ view_count: 0 });
    expect(await stored(expiring)).toMatchObject({ view_count: 0 });
  });
});
