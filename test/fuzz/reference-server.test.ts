/**
 * `boardkit fuzz` against the reference server at a CI-sized budget: every check and every phase of the
 * project's Schemathesis configuration, `--max-examples 5`, and not a single failure. The server runs in
 * this process on a free loopback port with an in-memory store; the command runs as users run it
 * (`node bin/boardkit.js fuzz`, on the built `lib/`). The full-size run and its last result are in
 * docs/fuzzing.md.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { parseRunReport, reportFiles, type RunReport } from '../../src/fuzz/index.js';
import { scaledClock } from '../../src/server/clock.js';
import { startServer, type RunningServer } from '../../src/server/server.js';

/**
 * The CI budget (a few minutes on two cores) unless `BOARDKIT_FUZZ_MAX_EXAMPLES` asks for more: the
 * full-size run of docs/fuzzing.md is this test with 100, its reports kept in `BOARDKIT_FUZZ_REPORT_DIR`.
 */
const maxExamples = Number(process.env['BOARDKIT_FUZZ_MAX_EXAMPLES'] ?? 5);
const keptReportDir = process.env['BOARDKIT_FUZZ_REPORT_DIR'];
const apiKey = 'sk_test_fuzzci0000000000000000';
/**
 * Generated starts spend credits; a workspace that runs dry answers `402`, which is right but would stop
 * the fuzzer from reaching everything after it. The test workspace is funded for the whole run instead.
 */
const fuzzBudgetCredits = 1_000_000_000;
/**
 * Simulated time runs 600 times faster: a board run (about 110 simulated seconds) ends within a fifth of a
 * second, a few steps of a stateful scenario, so the scenarios that start a session also meet it running
 * (messages, cancel) and then complete (outcomes, fork, continue, reconvene, archive, delete). At 60 it
 * outlived every scenario and those links only ever met `409`.
 */
const fuzzTimeScale = 600;
/**
 * `wait_ms` is wall-clock time (docs/decisions.md "Time and other implementations"), so each generated
 * long poll of an unchanging session (up to `wait_ms=60000`) would hold for a real minute. Schemathesis
 * times nothing, so here the wall clock runs at the server's speed too, and the run stays CI-sized.
 */
const fuzzWallClock = scaledClock(fuzzTimeScale);

let server: RunningServer;
let reportDir: string;

beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, apiKeys: [apiKey], timeScale: fuzzTimeScale, wallClock: fuzzWallClock, validateResponses: true });
  const [key] = server.provisioned;
  if (key === undefined) {
    throw new Error('the server provisioned no key');
  }
  server.services.store.credits.record({
    workspaceId: key.workspace.id,
    kind: 'topup',
    credits: fuzzBudgetCredits,
    sessionId: null,
    description: 'Budget of the generated tests',
    at: server.services.clock.now(),
  });
  reportDir = keptReportDir ?? (await mkdtemp(join(tmpdir(), 'boardkit-fuzz-')));
});

afterAll(async () => {
  await server?.close();
  if (reportDir !== undefined && keptReportDir === undefined) {
    await rm(reportDir, { recursive: true, force: true });
  }
});

function fuzz(...args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(packageRoot, 'bin', 'boardkit.js'), 'fuzz', ...args], {
      cwd: packageRoot,
      env: { ...process.env, BOARDKIT_API_KEY: apiKey },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

test(
  'the reference server passes every check of every phase',
  async () => {
    const code = await fuzz('--target', server.baseUrl, '--max-examples', String(maxExamples), '--report-dir', reportDir);
    const summary = await readFile(join(reportDir, reportFiles.summary), 'utf8');
    const report: RunReport = parseRunReport(await readFile(join(reportDir, reportFiles.json), 'utf8'));

    // The summary names every failing check and case with its curl; it is the message of a failure.
    expect(report.failures, summary).toEqual([]);
    expect(report.errors, summary).toEqual([]);
    expect(code, summary).toBe(0);
    expect(Object.values(report.phases ?? {}).map((phase) => phase.status)).toEqual(['success', 'success', 'success', 'success']);
    expect(report.operations?.tested).toBe(report.operations?.total);
    // Every response the server sent during the run was valid against the contract.
    expect(server.violations).toEqual([]);
  },
  // Under a minute at the CI size, 3½ at the full size (docs/fuzzing.md); room for slow machines.
  Math.max(15, maxExamples) * 60_000,
);
