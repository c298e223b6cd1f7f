/**
 * `boardkit conformance` as CI runs it: exit code 0 when no MUST fails, 1 when one does, 2 when the suite
 * cannot run; live progress on stderr, the summary on stdout, the reports on disk. The target is a tiny
 * fake on 127.0.0.1 that answers just what a run of AUTH-004 (the health probe needs no key) asks.
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

/** A target whose health probe is open, or wrongly demands a key. */
async function fakeTarget(healthNeedsKey: boolean): Promise<Server> {
  const server = createServer((request, response) => {
    const json = (status: number, body: unknown, type = 'application/json'): void => {
      response.writeHead(status, { 'content-type': type, 'x-service-api-version': '2026-10-01' }).end(JSON.stringify(body));
    };
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    if (path === '/v1/health') {
      return healthNeedsKey && request.headers.authorization === undefined
        ? json(401, { type: 'https://problems.decision-board.example/unauthorized', title: 'Unauthorized', status: 401, detail: 'Send a key.' }, 'application/problem+json')
        : json(200, { status: 'ok' });
    }
    if (path === '/v1/sessions' || path === '/synths') {
      return json(200, { items: [], next_cursor: null });
    }
    json(404, { type: 'https://problems.decision-board.example/not-found', title: 'Not found', status: 404, detail: 'No such thing.' }, 'application/problem+json');
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
  [open, guarded] = await Promise.all([fakeTarget(false), fakeTarget(true)]);
  reports = await mkdtemp(join(tmpdir(), 'boardkit-conformance-cli-'));
});

afterAll(async () => {
  open.close();
  guarded.close();
  await rm(reports, { recursive: true, force: true });
});

describe('boardkit conformance', () => {
  test('exits 0 when no MUST fails, with progress, summary and the three reports', async () => {
    const run = await boardkit('--target', urlOf(open), '--api-key', 'sk_test_cli0000000001', '--only', 'AUTH-004', '--report-dir', join(reports, 'ok'));
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/ok .* auth\.health-without-token/);
    expect(run.stdout).toContain('Verdict: no MUST requirement failed.');
    expect((await readdir(join(reports, 'ok'))).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
  });

  test('exits 1 when a MUST fails, naming it', async () => {
    const run = await boardkit('--target', urlOf(guarded), '--api-key', 'sk_test_cli0000000001', '--only', 'AUTH-004', '--report-dir', join(reports, 'fail'));
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('FAIL AUTH-004 [MUST]');
    expect(run.stdout).toContain('Verdict: MUST requirements failed: AUTH-004.');
  });

  test.each([
    ['without --target', ['--api-key', 'sk_test_cli0000000001'], /--target and --api-key/],
    ['without a key', ['--target', 'http://127.0.0.1:9'], /--target and --api-key/],
    ['with an unknown --only', ['--target', 'http://127.0.0.1:9', '--api-key', 'k', '--only', 'NOPE-1'], /--only NOPE-1/],
  ])('exits 2 %s', async (_, args, message) => {
    const run = await boardkit(...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  test('exits 2 when the target cannot be reached', async () => {
    const closed = await fakeTarget(false);
    const url = urlOf(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const run = await boardkit('--target', url, '--api-key', 'sk_test_cli0000000001', '--report-dir', join(reports, 'none'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot be reached/);
  });
});
