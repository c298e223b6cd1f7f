/**
 * `boardkit conformance` as CI runs it: exit code 0 conformant, 1 not conformant (a MUST failed), 2 the
 * suite cannot run (a wrong base URL, a refused key, a usage error), 3 incomplete; live progress on stderr,
 * the summary on stdout ending with the verdict, the reports on disk. The target is a tiny fake on
 * 127.0.0.1 that answers just what a run of AUTH-004 (the health probe needs no key) asks.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { runBoardkit, type Run } from '../support/boardkit.js';

function boardkit(...args: string[]): Promise<Run> {
  return runBoardkit(['conformance', ...args], { BOARDKIT_API_KEY: '' });
}

/** A target whose health probe is open, or wrongly demands a key; `refusedKey` is refused everywhere. */
async function fakeTarget(healthNeedsKey: boolean, refusedKey?: string): Promise<Server> {
  const server = createServer((request, response) => {
    const json = (status: number, body: unknown, type = 'application/json'): void => {
      response
        .writeHead(status, { 'content-type': type, 'x-service-api-version': '2026-10-01' })
        .end(JSON.stringify(body));
    };
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    if (refusedKey !== undefined && request.headers.authorization === `Bearer ${refusedKey}`) {
      return json(
        401,
        {
          type: 'https://problems.decision-board.example/unauthorized',
          title: 'Unauthorized',
          status: 401,
          detail: 'Unknown key.',
        },
        'application/problem+json',
      );
    }
    if (path === '/v1/health') {
      return healthNeedsKey && request.headers.authorization === undefined
        ? json(
            401,
            {
              type: 'https://problems.decision-board.example/unauthorized',
              title: 'Unauthorized',
              status: 401,
              detail: 'Send a key.',
            },
            'application/problem+json',
          )
        : json(200, { status: 'ok' });
    }
    if (path === '/v1/sessions' || path === '/synths') {
      return json(200, { items: [], next_cursor: null });
    }
    json(
      404,
      {
        type: 'https://problems.decision-board.example/not-found',
        title: 'Not found',
        status: 404,
        detail: 'No such thing.',
      },
      'application/problem+json',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const urlOf = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

let open: Server;
let guarded: Server;
let reports: string;

beforeAll(async () => {
  if (!existsSync(join(packageRoot, 'lib', 'conformance', 'index.js'))) {
    throw new Error('lib/ is missing: run `npm run build` (npm test does it first)');
  }
  [open, guarded] = await Promise.all([fakeTarget(false, 'sk_test_refused0000000001'), fakeTarget(true)]);
  reports = await mkdtemp(join(tmpdir(), 'boardkit-conformance-cli-'));
});

afterAll(async () => {
  open.close();
  guarded.close();
  await rm(reports, { recursive: true, force: true });
});

describe('boardkit conformance', () => {
  test('exits 0 when every selected MUST ran and passed, with progress, summary and the three reports', async () => {
    const run = await boardkit(
      '--target',
      urlOf(open),
      '--api-key',
      'sk_test_cli0000000001',
      '--only',
      'AUTH-004',
      '--report-dir',
      join(reports, 'ok'),
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/ok .* auth\.health-without-token/);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Verdict: conformant (every selected MUST requirement ran and passed).',
    );
    expect((await readdir(join(reports, 'ok'))).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
  });

  test('exits 1 when a MUST fails, naming it', async () => {
    const run = await boardkit(
      '--target',
      urlOf(guarded),
      '--api-key',
      'sk_test_cli0000000001',
      '--only',
      'AUTH-004',
      '--report-dir',
      join(reports, 'fail'),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('FAIL AUTH-004 [MUST]');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Verdict: not conformant (MUST requirements failed: AUTH-004).',
    );
  });

  test('exits 3 when a MUST could not be checked, listing what would enable it; 0 with --allow-incomplete', async () => {
    // The fake starts no session, so LIFE-001 cannot be set up: an error, not a failure of the target.
    const args = ['--target', urlOf(open), '--api-key', 'sk_test_cli0000000001', '--only', 'AUTH-004,LIFE-001'];
    const run = await boardkit(...args, '--report-dir', join(reports, 'incomplete'));
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(
      /ERR {2}LIFE-001 \[MUST\].*\n {7}setup failed: starting a session answered \d+\n {7}to check it: the target did not let the check set up what it needs/,
    );
    expect(run.stdout).toContain('  LIFE-001 (error): the target did not let the check set up what it needs');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Verdict: incomplete (no MUST requirement failed, but 1 could not be checked: LIFE-001).',
    );
    const allowed = await boardkit(...args, '--allow-incomplete', '--report-dir', join(reports, 'allowed'));
    expect(allowed.code).toBe(0);
    expect(allowed.stdout.trimEnd().split('\n').at(-1)).toMatch(/^Verdict: incomplete/);
  });

  test.each([
    [
      'a path prefix too many',
      '/v1',
      /answered 404 .*path prefix too many: http:\/\/127\.0\.0\.1:\d+\/v1\/health answers, so use --target http:\/\/127\.0\.0\.1:\d+$/m,
    ],
    ['two path segments too many', '/v1/sessions', /so use --target http:\/\/127\.0\.0\.1:\d+$/m],
    ['a path prefix that is not the API', '/api', /path prefix too many: .*use --target http:\/\/127\.0\.0\.1:\d+$/m],
  ])('exits 2 at once with the base URL that answers, given %s', async (_, suffix, message) => {
    const run = await boardkit(
      '--target',
      `${urlOf(open)}${suffix}`,
      '--api-key',
      'sk_test_cli0000000001',
      '--report-dir',
      join(reports, 'prefix'),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  test('exits 2 when the host is not this API, saying so', async () => {
    const site = createServer((_, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>'),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const run = await boardkit(
        '--target',
        urlOf(site),
        '--api-key',
        'sk_test_cli0000000001',
        '--report-dir',
        join(reports, 'site'),
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /answered 200 text\/html, not the API's health probe\. The host serves web pages there: it does not look like the Decision-Board API/,
      );
    } finally {
      site.close();
    }
  });

  test('exits 2 when the key is refused, naming the flag', async () => {
    const run = await boardkit(
      '--target',
      urlOf(open),
      '--api-key',
      'sk_test_refused0000000001',
      '--report-dir',
      join(reports, 'refused'),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--api-key was rejected: GET .*\/v1\/sessions answered 401/);
  });

  test.each([
    ['without --target', ['--api-key', 'sk_test_cli0000000001'], /--target and --api-key/],
    ['without a key', ['--target', 'http://127.0.0.1:9'], /--target and --api-key/],
    [
      'with an unknown --only',
      ['--target', 'http://127.0.0.1:9', '--api-key', 'k', '--only', 'NOPE-1'],
      /--only NOPE-1/,
    ],
    [
      'with an unknown option',
      ['--target', 'http://127.0.0.1:9', '--api-key', 'k', '--no-such-flag'],
      /unknown option/,
    ],
    [
      'with a --timeout that is not a number of seconds',
      ['--target', 'http://127.0.0.1:9', '--api-key', 'k', '--timeout', 'soon'],
      /--timeout take a positive number/,
    ],
  ])('exits 2 %s', async (_, args, message) => {
    const run = await boardkit(...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  test('exits 2 when the target cannot be reached', async () => {
    const closed = await fakeTarget(false);
    const url = urlOf(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const run = await boardkit(
      '--target',
      url,
      '--api-key',
      'sk_test_cli0000000001',
      '--report-dir',
      join(reports, 'none'),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot be reached/);
  });
});
