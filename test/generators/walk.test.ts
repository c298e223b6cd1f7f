/**
 * The Python client generated from the contract, used as a Python team would (test/generators/walk.py),
 * drives the reference server: start with an Idempotency-Key, its replay and conflict, a long poll to
 * `complete` with each read parsed to `Session`, cursor pages to the end, a 404 parsed as `Problem`, and a
 * webhook delivery whose signature is verified in Python. The client is generated once, into a temp dir.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { startChildServer, type ChildServer } from '../reliability/child-server.js';
import { contractFile, pythonGenerate, venvBin } from './python-client.js';

const run = promisify(execFile);
const apiKey = 'sk_test_generatedclientwalk';

let dir: string;
let server: ChildServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boardkit-python-walk-'));
  [server] = await Promise.all([
    startChildServer({
      db: join(dir, 'board.db'),
      apiKeys: [apiKey],
      timeScale: 1000,
      flags: ['--allow-loopback-webhooks'],
    }),
    pythonGenerate(contractFile, join(dir, 'board_client')),
  ]);
}, 180_000);

afterAll(async () => {
  await server?.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
});

test('the generated Python client walks the reference server', async () => {
  const { stdout } = await run(
    venvBin('python'),
    [join(packageRoot, 'test', 'generators', 'walk.py'), server.baseUrl, apiKey],
    {
      env: { ...process.env, PYTHONPATH: dir },
      timeout: 240_000,
    },
  );
  const walk = JSON.parse(stdout) as { started: string; reads: number; pages: number; delivery: string };
  expect(walk.started).toMatch(/^ses_/);
  expect(walk.reads).toBeGreaterThanOrEqual(1);
  expect(walk.pages).toBe(2);
  expect(walk.delivery).not.toBe('');
}, 300_000);
