/**
 * The reference server started for testing as users start it, `boardkit serve --test-control` (a child
 * process on a free port, on the built `lib/`), announces its control plane, and `boardkit conformance`
 * finds it there and runs a few categories clean, with the clock jumps the time control allows.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { runBoardkit } from '../support/boardkit.js';

const keyA = 'sk_test_servecontrol0000000000001';
const keyB = 'sk_test_servecontrol0000000000002';

let server: ChildProcessWithoutNullStreams;
let exited: Promise<number | null>;
let baseUrl: string;
let banner: string;
let reports: string;

/** Starts `boardkit serve` and resolves with its base URL and output once it says it listens. */
function serve(args: string[]): Promise<{ baseUrl: string; output: string }> {
  server = spawn(process.execPath, [join(packageRoot, 'bin', 'boardkit.js'), 'serve', ...args], { cwd: packageRoot });
  exited = new Promise((resolve) => server.on('close', resolve));
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    server.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /^ {2}(http:\/\/127\.0\.0\.1:\d+) /m.exec(output);
      if (match?.[1] !== undefined && output.includes('Ctrl-C')) {
        resolve({ baseUrl: match[1], output });
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${errors}`)));
  });
}

beforeAll(async () => {
  reports = await mkdtemp(join(tmpdir(), 'boardkit-serve-test-control-'));
  ({ baseUrl, output: banner } = await serve(['--port', '0', '--db', ':memory:', '--api-key', keyA, '--api-key', keyB, '--time-scale', '250', '--test-control', '--allow-loopback-webhooks']));
});

afterAll(async () => {
  server?.kill('SIGINT');
  expect(await exited).toBe(0);
  await rm(reports, { recursive: true, force: true });
});

describe('boardkit serve --test-control', () => {
  test('announces the control plane on start and on the health probe, and serves it', async () => {
    expect(banner).toContain(`Test control: ${baseUrl}/_test`);
    const health = await fetch(`${baseUrl}/v1/health`);
    expect(health.headers.get('x-boardkit-test-control')).toBe('/_test');
    const clock = (await (await fetch(`${baseUrl}/_test/clock`)).json()) as { time_scale: number };
    expect(clock.time_scale).toBe(250);
    const faults = (await (await fetch(`${baseUrl}/_test/faults`)).json()) as { available: string[]; active: string[] };
    expect(faults.available).toContain('webhook-skip-retries');
    expect(faults.active).toEqual([]);
  });

  test('boardkit conformance discovers it and passes idempotency and the webhook retries', async () => {
    const run = await runBoardkit(
      ['conformance', '--target', baseUrl, '--api-key', keyA, '--api-key-b', keyB, '--profile', 'reference', '--only', 'idempotency,HOOK-008', '--report-dir', reports],
      { BOARDKIT_API_KEY: '', BOARDKIT_API_KEY_B: '' },
    );
    const report = JSON.parse(await readFile(join(reports, 'report.json'), 'utf8')) as {
      target: { testControl: boolean; clockControllable: boolean };
      requirements: Array<{ id: string; status: string }>;
    };
    expect(report.target).toMatchObject({ testControl: true, clockControllable: true });
    // IDEM-007 (a replay 23 hours later) and HOOK-008 (81 minutes of retries) run only with time control.
    expect(report.requirements.filter((requirement) => requirement.status !== 'pass')).toEqual([]);
    expect(report.requirements.map((requirement) => requirement.id)).toEqual(expect.arrayContaining(['IDEM-007', 'HOOK-008']));
    expect(run.code).toBe(0);
  });
});
