/**
 * The reference server as users start it (`boardkit serve`, a child process on a free port, on the built
 * `lib/`), tested by `boardkit conformance` as CI runs it.
 * - Started for testing (`--test-control --allow-loopback-webhooks`), it announces its control plane, and
 *   the suite finds it there and runs a few categories clean, with the clock jumps the time control allows.
 * - Started plainly, its URL guard fails every attempt to the suite's receiver on 127.0.0.1: the delivery
 *   checks skip, say why and how to enable them, the guard's own requirement passes, nothing fails, and
 *   the run is incomplete (exit 3).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { runBoardkit } from '../support/boardkit.js';

const keyA = 'sk_test_servecontrol0000000000001';
const keyB = 'sk_test_servecontrol0000000000002';

interface Served {
  baseUrl: string;
  output: string;
  stop(): Promise<number | null>;
}

/** Starts `boardkit serve` and resolves once it says it listens. */
function serve(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [join(packageRoot, 'bin', 'boardkit.js'), 'serve', ...args], {
    cwd: packageRoot,
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const stop = (): Promise<number | null> => {
    child.kill('SIGINT');
    return exited;
  };
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /^ {2}(http:\/\/127\.0\.0\.1:\d+) /m.exec(output);
      if (match?.[1] !== undefined && output.includes('Ctrl-C')) {
        resolve({ baseUrl: match[1], output, stop });
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${errors}`)));
  });
}

interface Report {
  target: { testControl: boolean; clockControllable: boolean };
  requirements: Array<{ id: string; status: string; reason?: string; remedy?: string }>;
}

let forTesting: Served;
let plain: Served;
let reports: string;

beforeAll(async () => {
  reports = await mkdtemp(join(tmpdir(), 'boardkit-serve-test-control-'));
  [forTesting, plain] = await Promise.all([
    serve([
      '--port',
      '0',
      '--db',
      ':memory:',
      '--api-key',
      keyA,
      '--api-key',
      keyB,
      '--time-scale',
      '250',
      '--test-control',
      '--allow-loopback-webhooks',
    ]),
    serve(['--port', '0', '--db', ':memory:', '--api-key', keyA]),
  ]);
});

afterAll(async () => {
  expect(await Promise.all([forTesting?.stop(), plain?.stop()])).toEqual([0, 0]);
  await rm(reports, { recursive: true, force: true });
});

describe('boardkit serve --test-control', () => {
  test('announces the control plane on start and on the health probe, and serves it', async () => {
    const { baseUrl } = forTesting;
    expect(forTesting.output).toContain(`Test control: ${baseUrl}/_test`);
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
      [
        'conformance',
        '--target',
        forTesting.baseUrl,
        '--api-key',
        keyA,
        '--api-key-b',
        keyB,
        '--profile',
        'reference',
        '--only',
        'idempotency,HOOK-008',
        '--report-dir',
        join(reports, 'test-control'),
      ],
      { BOARDKIT_API_KEY: '', BOARDKIT_API_KEY_B: '' },
    );
    const report = JSON.parse(await readFile(join(reports, 'test-control', 'report.json'), 'utf8')) as Report;
    expect(report.target).toMatchObject({ testControl: true, clockControllable: true });
    // IDEM-007 (a replay 23 hours later) and HOOK-008 (81 minutes of retries) run only with time control.
    expect(report.requirements.filter((requirement) => requirement.status !== 'pass')).toEqual([]);
    expect(report.requirements.map((requirement) => requirement.id)).toEqual(
      expect.arrayContaining(['IDEM-007', 'HOOK-008']),
    );
    expect(run.code).toBe(0);
  });
});

describe('boardkit serve without loopback permission', () => {
  test('the delivery checks skip with the reason and the remedy, the URL guard passes, and the run is incomplete', async () => {
    const run = await runBoardkit(
      [
        'conformance',
        '--target',
        plain.baseUrl,
        '--api-key',
        keyA,
        '--only',
        'webhooks',
        '--report-dir',
        join(reports, 'plain'),
      ],
      { BOARDKIT_API_KEY: '', BOARDKIT_API_KEY_B: '' },
    );
    const report = JSON.parse(await readFile(join(reports, 'plain', 'report.json'), 'utf8')) as Report & {
      summary: { verdict: string };
    };
    const status = Object.fromEntries(report.requirements.map((requirement) => [requirement.id, requirement.status]));
    // Subscribing, the URL guard and managing subscriptions need no delivery.
    const withoutDelivery = ['HOOK-001', 'HOOK-011', 'HOOK-015', 'HOOK-016', 'HOOK-017'];
    const needDelivery = report.requirements.filter((requirement) => !withoutDelivery.includes(requirement.id));
    expect(needDelivery.map((requirement) => requirement.id)).toHaveLength(13);
    expect(needDelivery.filter((requirement) => requirement.status !== 'skip')).toEqual([]);
    for (const { reason, remedy } of needDelivery) {
      expect(remedy).toContain('`boardkit serve --allow-loopback-webhooks`');
      expect(reason).toMatch(
        /^the target does not deliver to the suite's receiver at http:\/\/127\.0\.0\.1:\d+ \(its attempts: Not sent: .+\); the reference server does with `boardkit serve --allow-loopback-webhooks`$/,
      );
    }
    expect(withoutDelivery.map((id) => status[id])).toEqual(withoutDelivery.map(() => 'pass'));
    expect(report.summary.verdict).toBe('incomplete');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^Verdict: incomplete \(no MUST requirement failed, but \d+ could not be checked: HOOK-/,
    );
    expect(run.code).toBe(3);
  });
});
