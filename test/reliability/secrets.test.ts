/**
 * Secrets after their creation (docs/reliability.md "Secrets after creation"; seed "Events": the signing
 * secret is returned once at creation; "Authentication": keys are bearer secrets). `boardkit serve` runs as
 * users run it, its output captured while webhooks are created and delivered (some to a failing receiver),
 * shares made with passwords, and requests refused for bad keys and bad bodies: no API key, signing secret
 * or share password appears in its output, in any listing or read after creation, in any error, or in the
 * store except where it must be (a signing secret signs every delivery, so it is kept; keys and passwords
 * are kept only as hashes).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { waitFor } from '../server/harness.js';
import { startReceiver, type Receiver } from '../server/receiver.js';
import { expectProblem, send, type RawAnswer } from './contract-requests.js';

const apiKey = 'sk_live_secretsSecrets0000000000001';
const otherKey = 'sk_test_secretsSecrets0000000000002';
const sharePassword = 'correct-horse-battery-staple';

let folder: string;
let child: ChildProcessWithoutNullStreams;
let output = '';
let baseUrl = '';
let failing: Receiver;
let working: Receiver;
const secrets: string[] = [apiKey, otherKey, sharePassword];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'boardkit-secrets-'));
  failing = await startReceiver();
  failing.answer(500);
  working = await startReceiver();
  child = spawn(
    process.execPath,
    [
      join(packageRoot, 'bin', 'boardkit.js'),
      'serve',
      '--port',
      '0',
      '--db',
      join(folder, 'board.db'),
      '--api-key',
      apiKey,
      '--api-key',
      otherKey,
      '--time-scale',
      '600',
      '--allow-private-webhook-urls',
    ],
    { cwd: folder },
  );
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await waitFor(() => /Ctrl-C/.test(output) || child.exitCode !== null, 30_000);
  baseUrl = /^ {2}(http:\/\/127\.0\.0\.1:\d+) /m.exec(output)?.[1] ?? '';
  expect(baseUrl, output).not.toBe('');
});

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('close', resolve));
  }
  await failing?.close();
  await working?.close();
  rmSync(folder, { recursive: true, force: true });
});

function call(
  method: string,
  path: string,
  body?: unknown,
  key = apiKey,
  extra: Record<string, string> = {},
): Promise<RawAnswer> {
  const headers = {
    authorization: `Bearer ${key}`,
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...extra,
  };
  return send(baseUrl, { method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

function json<T>(answer: RawAnswer): T {
  expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(300);
  return JSON.parse(answer.text) as T;
}

function expectNoSecret(text: string, where: string): void {
  for (const secret of secrets) {
    expect(text, `${where} shows a secret`).not.toContain(secret);
  }
}

test('no secret shows after its creation: listings, reads, errors, deliveries, the store and the server output', async () => {
  const hooks: string[] = [];
  for (const url of [failing.url, working.url]) {
    const created = json<{ subscription: { id: string }; signing_secret: string }>(
      await call('POST', '/v1/webhooks', {
        label: 'Secret keeper',
        url,
        events: ['session.complete', 'share.created', 'decision.captured'],
      }),
    );
    secrets.push(created.signing_secret);
    hooks.push(created.subscription.id);
  }
  const started = json<{ id?: string; session_id?: string }>(
    await call('POST', '/v1/sessions', {
      mode: 'boardroom',
      title: 'Keep the keys',
      synths: ['cfo', 'skeptic'],
      rounds: 1,
    }),
  );
  const sessionId = started.id ?? started.session_id ?? '';
  await waitFor(() => working.deliveries.some((delivery) => delivery.body.event === 'session.complete'), 30_000);
  const share = json<{ id: string }>(
    await call('POST', `/v1/sessions/${sessionId}/shares`, { access: 'password', password: sharePassword }),
  );
  json(await call('POST', `/v1/sessions/${sessionId}/decisions`, { decision: 'Keep them.' }));
  await waitFor(() => failing.deliveries.length >= 3 && working.deliveries.length >= 3, 30_000);

  const reads: Array<[string, RawAnswer]> = [
    ['the webhook listing', await call('GET', '/v1/webhooks?limit=100')],
    ['the unversioned webhook listing', await call('GET', '/webhooks?limit=100')],
    ['the share listing', await call('GET', `/v1/sessions/${sessionId}/shares`)],
    ['the session', await call('GET', `/v1/sessions/${sessionId}`)],
    ['the session listing', await call('GET', '/v1/sessions')],
  ];
  for (const id of hooks) {
    reads.push(['a webhook', await call('GET', `/v1/webhooks/${id}`)]);
    reads.push(['its deliveries', await call('GET', `/v1/webhooks/${id}/deliveries?limit=100`)]);
    reads.push(['its update', await call('PATCH', `/v1/webhooks/${id}`, { label: 'Renamed' })]);
  }
  for (const [where, answer] of reads) {
    expect(answer.status, where).toBe(200);
    expectNoSecret(answer.text, where);
    expect(answer.text, where).not.toMatch(/scrypt\$|signing_secret/);
  }
  expect(JSON.stringify(json(await call('GET', `/v1/webhooks/${hooks[0]}/deliveries?limit=100`)))).toMatch(
    /Receiver answered 500/,
  );

  const refusals: Array<[string, RawAnswer]> = [
    ['an unknown live key', await call('GET', '/v1/sessions', undefined, 'sk_live_secretsSecrets0000000000009')],
    ['a key with a wrong character', await call('GET', '/v1/sessions', undefined, `${apiKey}!`)],
    ['a key sent twice', await call('GET', '/v1/sessions', undefined, `${apiKey} ${apiKey}`)],
    [
      'another scheme',
      await send(baseUrl, { method: 'GET', path: '/v1/sessions', headers: { authorization: `Token ${apiKey}` } }),
    ],
    ['a key in the query', await send(baseUrl, { method: 'GET', path: `/v1/sessions?api_key=${apiKey}` })],
    ['a bad body', await call('POST', '/v1/sessions', `{"title":"${apiKey}"`)],
    [
      'a body that is not JSON',
      await send(baseUrl, {
        method: 'POST',
        path: '/v1/webhooks',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: `{"url": ${secrets[3]}}`,
      }),
    ],
    [
      "another workspace's share",
      await call('POST', `/v1/sessions/${sessionId}/shares/${share.id}/revoke`, undefined, otherKey),
    ],
    [
      'a start of a session of another workspace',
      await call('POST', `/v1/sessions/${sessionId}/continue`, {}, otherKey),
    ],
  ];
  for (const [where, answer] of refusals) {
    expectProblem(answer, [400, 401, 404], where);
    for (const value of Object.values(answer.headers)) {
      expectNoSecret(String(value), `a header of ${where}`);
    }
  }
  // The problem may quote the body the caller sent; it never quotes the Authorization header.
  for (const [where, answer] of refusals.slice(0, 5)) {
    expectNoSecret(answer.text, where);
  }

  for (const delivery of [...working.deliveries, ...failing.deliveries]) {
    expectNoSecret(`${JSON.stringify(delivery.headers)}${delivery.rawBody}`, 'a delivery');
  }

  child.kill('SIGINT');
  await new Promise((resolve) => child.once('close', resolve));
  expect(output).toContain(baseUrl);
  expectNoSecret(output, 'the server output');

  const db = new Database(join(folder, 'board.db'), { readonly: true });
  try {
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    const dump = tables.map(({ name }) => JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all())).join('\n');
    for (const secret of [apiKey, otherKey, sharePassword]) {
      expect(dump).not.toContain(secret);
    }
    const keys = db.prepare<[], { secret_hash: string; hint: string }>('SELECT secret_hash, hint FROM api_keys').all();
    expect(keys.map((key) => key.hint).sort()).toEqual(['sk_live_...0001', 'sk_test_...0002']);
    expect(keys.every((key) => /^[0-9a-f]{64}$/.test(key.secret_hash))).toBe(true);
  } finally {
    db.close();
  }
  for (const file of readdirSync(folder)) {
    const bytes = readFileSync(join(folder, file)).toString('latin1');
    expect(bytes, file).not.toContain(apiKey);
    expect(bytes, file).not.toContain(sharePassword);
  }
});
