/**
 * A run is bounded in time whatever the target does: the command exits after writing its reports even
 * when the target holds an event stream open and never sends its last event, and a target whose session
 * reads break the contract (no `status`) fails in seconds instead of waiting out every session. The
 * broken targets are the reference server behind the rewriting proxy of the equivalence tests.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunResult } from '../../conformance/harness/results.js';
import { runBoardkit } from '../support/boardkit.js';
import { startRewritingProxy, type RewritingProxy, type Variant } from './equivalence/proxy.js';
import { keyA, type ReferenceTarget, startReferenceTarget } from './support/reference-target.js';

/** Drops the summary stream's final event and never closes the stream. */
const summaryWithoutEnd: Variant = {
  stream: (block) => [
    block
      .split(/(?<=\n\n)/)
      .filter((event) => !event.startsWith('event: summary.final'))
      .join(''),
  ],
  holdStreams: true,
};

/** Leaves the required `status` out of every session read. */
const sessionsWithoutStatus: Variant = {
  json: (body, { method, path }) =>
    method === 'GET' && /^\/v1\/sessions\/[^/?]+(\?|$)/.test(path) && body !== null && typeof body === 'object'
      ? Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'status'))
      : body,
};

let reports: string;
const targets: ReferenceTarget[] = [];
const proxies: RewritingProxy[] = [];

beforeAll(async () => {
  reports = await mkdtemp(join(tmpdir(), 'boardkit-bounded-'));
});

afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await Promise.all(targets.map((target) => target.close()));
  await rm(reports, { recursive: true, force: true });
});

/** A run of `boardkit conformance` through `variant` to a target of its own, so the runs go side by side. */
async function run(
  variant: Variant,
  folder: string,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; report: RunResult; exitedAfterReportMs: number }> {
  const target = await startReferenceTarget({ timeScale: 500 });
  targets.push(target);
  const proxy = await startRewritingProxy(target.baseUrl, variant);
  proxies.push(proxy);
  const result = await runBoardkit(
    ['conformance', '--target', proxy.baseUrl, '--api-key', keyA, '--report-dir', join(reports, folder), ...args],
    { BOARDKIT_API_KEY_B: '' },
  );
  const exitedAt = Date.now();
  const report = JSON.parse(await readFile(join(reports, folder, 'report.json'), 'utf8')) as RunResult;
  return { ...result, report, exitedAfterReportMs: exitedAt - Date.parse(report.finishedAt) };
}

describe.concurrent('a run bounded in time', () => {
  test('a summary stream that never ends: the run writes its reports and exits', async () => {
    const { code, stdout, report, exitedAfterReportMs } = await run(
      summaryWithoutEnd,
      'summary',
      '--only',
      'SUMM-001,SUMM-002',
      '--session-timeout',
      '4',
    );
    // SUMM-002 (end with summary.final) is a SHOULD: the one MUST, SUMM-001, passed.
    expect(report.requirements.find((requirement) => requirement.id === 'SUMM-002')?.status).toBe('fail');
    expect(code).toBe(0);
    // The proxy still holds the stream open: the process exits once its reports are written, not when the
    // target lets go (a hang waited minutes). The bound leaves room for a loaded machine.
    expect(exitedAfterReportMs).toBeLessThan(20_000);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe(
      'Verdict: conformant (every selected MUST requirement ran and passed).',
    );
  });

  test('session reads without the required status: the checks stop at the first read, the verdict is not conformant', async () => {
    const { code, report } = await run(
      sessionsWithoutStatus,
      'status',
      '--only',
      'lifecycle,CONT',
      '--session-timeout',
      '60',
    );
    expect(code).toBe(1);
    expect(report.summary.verdict).toBe('not conformant');
    // Stopping at the first read, no check waited out the 60 s a session may take.
    expect(Math.max(...report.checks.map((check) => check.durationMs))).toBeLessThan(60_000);
  });

  test('the whole run has a deadline: what still runs then ends as an error, and the reports are written', async () => {
    const { code, stdout, report } = await run(
      summaryWithoutEnd,
      'deadline',
      '--only',
      'SUMM-001,SUMM-002',
      '--session-timeout',
      '60',
      '--timeout',
      '3',
    );
    expect(report.requirements.map((requirement) => [requirement.id, requirement.status])).toEqual([
      ['SUMM-001', 'error'],
      ['SUMM-002', 'error'],
    ]);
    expect(report.requirements[0]?.reason).toMatch(/time limit/);
    expect(report.durationMs).toBeLessThan(60_000);
    expect(report.summary.verdict).toBe('incomplete');
    expect(code).toBe(3);
    expect(stdout).toMatch(/SUMM-001 \(error\): give the run more time with --timeout/);
  });
});
