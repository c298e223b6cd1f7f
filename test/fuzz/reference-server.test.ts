/**
 * `boardkit fuzz` against the reference server, as users run it (`node bin/boardkit.js fuzz`, on the built
 * `lib/`), at CI-sized budgets:
 * - every check and every phase of the project's Schemathesis configuration, `--max-examples 5`, and not a
 *   single failure; no request the run sent made the server wait longer than the run's bound, and the run
 *   printed its progress phase by phase and ended with what ran;
 * - a workspace without credits: the `402` answers the contract documents are not failures, and a time
 *   budget ends the run within it, saying so.
 * The server runs in this process on a free loopback port with an in-memory store, and records what it
 * was asked and what it answered. The full-size run and its last result are in docs/fuzzing.md.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseRunReport, reportFiles, waitBounds, type RunReport } from '../../src/fuzz/index.js';
import { scaledClock } from '../../src/server/core/clock.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { runBoardkit } from '../support/boardkit.js';

/**
 * The CI budget (a few minutes on two cores) unless `BOARDKIT_FUZZ_MAX_EXAMPLES` asks for more: the
 * full-size run of docs/fuzzing.md is this test with 100, its reports kept in `BOARDKIT_FUZZ_REPORT_DIR`.
 */
const maxExamples = Number(process.env['BOARDKIT_FUZZ_MAX_EXAMPLES'] ?? 5);
const keptReportDir = process.env['BOARDKIT_FUZZ_REPORT_DIR'];
const fundedKey = 'sk_test_fuzzci0000000000000000';
/** A workspace that starts with no credits: every start, turn and generation is `402 insufficient-credits`. */
const brokeKey = 'sk_test_fuzzbroke000000000000';
/**
 * Generated starts spend credits; a workspace that runs dry answers `402`, which is right (the second test)
 * but would stop the fuzzer from reaching everything after it. The first workspace is funded for the run.
 */
const fuzzBudgetCredits = 1_000_000_000;
/**
 * Simulated time runs 600 times faster: a board run (about 110 simulated seconds) ends within a fifth of a
 * second, a few steps of a stateful scenario, so the scenarios that start a session also meet it running
 * (messages, cancel) and then complete (outcomes, fork, continue, reconvene, archive, delete). At 60 it
 * outlived every scenario and those links only ever met `409`.
 */
const fuzzTimeScale = 600;

interface Exchange {
  url: URL;
  key: string | undefined;
  status: number;
}

let server: RunningServer;
const exchanges: Exchange[] = [];
let reportDir: string;

beforeAll(async () => {
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    apiKeys: [fundedKey, brokeKey],
    startingCredits: 0,
    timeScale: fuzzTimeScale,
    // The run's own bound keeps each long poll short; the wall clock runs at the server's speed as well.
    wallClock: scaledClock(fuzzTimeScale),
    validateResponses: true,
  });
  const funded = server.provisioned.find((key) => key.secret === fundedKey);
  if (funded === undefined) {
    throw new Error('the server provisioned no key');
  }
  server.services.store.credits.record({
    workspaceId: funded.workspace.id,
    kind: 'topup',
    credits: fuzzBudgetCredits,
    sessionId: null,
    description: 'Budget of the generated tests',
    at: server.services.clock.now(),
  });
  // A second listener only watches: the server's own answers each request.
  server.app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    response.on('finish', () => {
      exchanges.push({
        url: new URL(request.url ?? '/', server.baseUrl),
        key: request.headers.authorization?.replace(/^Bearer /, ''),
        status: response.statusCode,
      });
    });
  });
  reportDir = keptReportDir ?? (await mkdtemp(join(tmpdir(), 'boardkit-fuzz-')));
});

afterAll(async () => {
  await server?.close();
  if (reportDir !== undefined && keptReportDir === undefined) {
    await rm(reportDir, { recursive: true, force: true });
  }
});

async function fuzz(key: string, dir: string, ...args: string[]) {
  const run = await runBoardkit(['fuzz', '--target', server.baseUrl, '--report-dir', dir, ...args], {
    BOARDKIT_API_KEY: key,
  });
  const summary = await readFile(join(dir, reportFiles.summary), 'utf8');
  const report: RunReport = parseRunReport(await readFile(join(dir, reportFiles.json), 'utf8'));
  return { ...run, summary, report };
}

test(
  'the reference server passes every check of every phase, with every wait bounded',
  async () => {
    const run = await fuzz(fundedKey, reportDir, '--max-examples', String(maxExamples));
    const { report, summary } = run;

    // The summary names every failing check and case with its curl; it is the message of a failure.
    expect(report.failures, summary).toEqual([]);
    expect(report.errors, summary).toEqual([]);
    expect(run.code, summary).toBe(0);
    expect(Object.values(report.phases ?? {}).map((phase) => phase.status)).toEqual([
      'success',
      'success',
      'success',
      'success',
    ]);
    expect(report.operations?.tested).toBe(report.operations?.total);
    // Every response the server sent during the run was valid against the contract.
    expect(server.violations).toEqual([]);

    // Generated long polls asked for up to 60000 ms; the run sent valid values above its bound as the bound.
    const waits = exchanges
      .filter((exchange) => exchange.key === fundedKey)
      .map((exchange) => exchange.url.searchParams.get('wait_ms'))
      .filter((value): value is string => value !== null && /^\d+$/.test(value) && Number(value) <= 60_000)
      .map(Number);
    expect(waits.length).toBeGreaterThan(10);
    expect(waits.filter((wait) => wait > waitBounds.waitMs)).toEqual([]);
    expect(waits).toContain(waitBounds.waitMs);

    // Progress while it ran: each phase, each operation it reached; then what ran.
    for (const phase of ['examples', 'coverage', 'fuzzing', 'stateful']) {
      expect(run.stderr).toMatch(new RegExp(`^boardkit fuzz \\[ *\\d+ s\\] ${phase} phase$`, 'm'));
      expect(run.stderr).toMatch(
        new RegExp(`^boardkit fuzz \\[ *\\d+ s\\] ${phase}  GET /v1/sessions/\\{id\\}  \\(operation \\d+`, 'm'),
      );
    }
    expect(run.stdout).toContain('boardkit fuzz: passed (exit 0)');
    expect(run.stdout).toMatch(
      /Ran in \d+ s, ran to completion\.\n {2}Phases: examples passed, coverage passed, fuzzing passed, stateful passed\./,
    );
  },
  // Under a minute at the CI size, a few at the full size (docs/fuzzing.md); room for slow machines.
  Math.max(15, maxExamples) * 60_000,
);

test("a workspace without credits passes: 402 is the contract's answer; a time budget ends the run within it", async () => {
  const maxTime = 10;
  const dir = await mkdtemp(join(tmpdir(), 'boardkit-fuzz-402-'));
  try {
    const run = await fuzz(
      brokeKey,
      dir,
      '--max-examples',
      '2',
      '--phases',
      'examples,stateful',
      '--max-time',
      String(maxTime),
    );
    expect(run.report.failures, run.summary).toEqual([]);
    expect(run.code, run.summary).toBe(0);
    const refusals = exchanges.filter((exchange) => exchange.key === brokeKey && exchange.status === 402);
    expect(refusals.length).toBeGreaterThan(0);

    // Schemathesis spends the budget (fuzzing and stateful repeat until it is gone) and stops at it.
    expect(run.report.stop_reason).toBe('max_time');
    expect(run.report.running_time).toBeLessThan(maxTime + 10);
    expect(run.stdout).toContain(`stopped at its time budget of ${maxTime} s.`);
    expect(run.summary).toContain(`\`--max-time ${maxTime}\``);
    // The examples phase meets 402 at once (the contract's start examples); how far the stateful phase gets
    // in what is left of the budget depends on the machine.
    expect(run.stdout).toMatch(
      /Phases: examples passed, coverage skipped \(disabled\), fuzzing skipped \(disabled\), stateful \w+/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
