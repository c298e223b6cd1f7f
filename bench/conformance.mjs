#!/usr/bin/env node
/**
 * Wall time of the whole conformance suite (every category, the rate limits included, two workspaces,
 * the reference profile) against the reference server with the test-only time control, as users run it
 * (the CLI as a child process), and the default run (no profile: every published variant accepted, the
 * rate limits left out), whose budget is 60 s. The baseline, measured in the same run on the same
 * machine, is the same command against the Prism mock, where only the stateless categories apply. Each
 * line also gives the coverage of the run: the operations answered with a success, and the gaps.
 *
 *   npm run build && node bench/conformance.mjs [--rounds 3] [--time-scale 250]
 *
 * The reference server runs in this process on 127.0.0.1 (in-memory SQLite) with its test-only control
 * plane on and no fault switched on: it serves the time control of docs/conformance.md itself, and
 * delivers webhooks to the suite's receiver on loopback (HOOK-011 still passes: its check names the
 * receiver by 0.0.0.0, which the guard refuses). Each line reports the round with the median time. The
 * figures go into docs/benchmarks.md.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, root } from './support/autocannon.mjs';

const { values: options } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, 'time-scale': { type: 'string', default: '250' } },
});
const rounds = Number(options.rounds);
const timeScale = Number(options['time-scale']);

const { startServer } = await import(join(root, 'lib/src/server/server.js'));
const { startMock } = await import(join(root, 'lib/src/mock/mock.js'));

const keys = { a: 'sk_test_benchworkspacea00000001', b: 'sk_test_benchworkspaceb00000002' };

async function referenceTarget() {
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    db: ':memory:',
    apiKeys: [keys.a, keys.b],
    timeScale,
    testControl: true,
    allowLoopbackWebhookUrls: true,
    onError: () => undefined,
  });
  return { baseUrl: server.baseUrl, close: () => server.close() };
}

async function mockTarget() {
  const mock = await startMock({ port: await freePort() });
  return { baseUrl: mock.baseUrl, close: () => mock.stop() };
}

/**
 * Runs the CLI once; returns its wall time and the report's counts. `full`: the reference profile (the
 * server's start variants per version) with the rate-limit category; otherwise the default run, as a user
 * types it without a profile.
 */
function runSuite(baseUrl, full) {
  const reports = mkdtempSync(join(tmpdir(), 'boardkit-bench-'));
  const profile = join(reports, 'profile.json');
  writeFileSync(
    profile,
    JSON.stringify({
      name: 'reference-full',
      startResponseA: { '2026-10-01': ['A2'], '2026-04-01': ['A1'] },
      startResponseB: ['B'],
      sharePage: '/s/{token}',
      includeOptIn: true,
    }),
  );
  const args = [
    'bin/boardkit.js',
    'conformance',
    '--target',
    baseUrl,
    '--api-key',
    keys.a,
    '--api-key-b',
    keys.b,
    ...(full ? ['--profile', profile] : []),
    '--report-dir',
    reports,
  ];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8'));
      rmSync(reports, { recursive: true, force: true });
      const notPassing = report.requirements
        .filter((one) => one.status !== 'pass')
        .map((one) => `${one.id} ${one.status}`);
      const { operations } = report.coverage.summary;
      resolve({
        code,
        seconds,
        requests: report.requests,
        summary: report.summary.requirements,
        notPassing,
        operations: `${operations.seen}/${operations.documented}`,
        gaps: report.coverage.gaps.length,
      });
    });
  });
}

const median = (runs) => [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)];
const runs = [
  ['reference server, reference profile with rate limits', referenceTarget, true],
  ['reference server, default run', referenceTarget, false],
  ['mock (baseline)', mockTarget, true],
];
const results = Object.fromEntries(runs.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, start, full] of runs) {
    const target = await start();
    try {
      results[name].push(await runSuite(target.baseUrl, full));
    } finally {
      await target.close();
    }
  }
}

console.log(
  `node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${rounds} rounds, time scale ${timeScale}`,
);
console.log(
  '| target | wall time (median) | wall time of each round | requests | pass | fail | skip | error | exit code | operations exercised | coverage gaps |',
);
console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const [name, runs] of Object.entries(results)) {
  const { seconds, requests, summary, code, operations, gaps } = median(runs);
  const each = runs.map((run) => run.seconds.toFixed(1)).join(', ');
  console.log(
    `| ${name} | ${seconds.toFixed(1)} s | ${each} | ${requests} | ${summary.pass} | ${summary.fail} | ${summary.skip} | ${summary.error} | ${code} | ${operations} | ${gaps} |`,
  );
}
const [full, byDefault, mock] = runs.map(([name]) => results[name]);
console.log(
  `\nNot passing against the reference server: ${median(full).notPassing.join(', ') || 'none'} (reference profile); ${median(byDefault).notPassing.join(', ') || 'none'} (default run).`,
);
console.log(
  `Failing against the mock: ${
    median(mock)
      .notPassing.filter((one) => one.endsWith('fail'))
      .join(', ') || 'none'
  }.`,
);
const ratio = median(full).seconds / median(mock).seconds;
console.log(
  `\nThe full suite against the reference server takes ${ratio.toFixed(1)} times as long as the stateless part against the mock.`,
);
const budget = 60;
const slowest = Math.max(...byDefault.map((run) => run.seconds));
console.log(
  `Slowest default run against the reference server: ${slowest.toFixed(1)} s, ${slowest < budget ? 'within' : 'OVER'} the ${budget} s budget.`,
);
