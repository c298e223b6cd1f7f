/**
 * The parts of `boardkit fuzz` that read Schemathesis's reports and decide the verdict: the JUnit reader,
 * the JSON run report (with its 128-bit seed), the exit code, the command line, the summary page, the
 * console's account of what ran and the progress lines.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import {
  defaultConfigFile,
  outcomeLines,
  parseJunit,
  parseRunReport,
  progressPrinter,
  readCallRecords,
  renderSummary,
  schemathesisArguments,
  verdict,
  type CallRecord,
  type RunReport,
} from '../../src/fuzz/index.js';

const junit = `<?xml version="1.0" encoding="utf-8"?>
<testsuites errors="0" failures="2" skipped="1" tests="3" time="1.5">
  <testsuite name="schemathesis" hostname="vm" errors="0" failures="2" skipped="1" tests="3" time="1.5">
    <testcase name="GET /v1/health" time="0.601126"/>
    <testcase name="GET /v1/sessions/{id}" time="0.949098">
      <failure type="failure" message="ST401">1. Test Case ID: khtCEl

- ST401 API accepts invalid authentication

    curl -X GET -H &apos;Authorization: [Filtered]&apos; &quot;http://127.0.0.1:8080/v1/sessions/a&amp;b&quot; &lt;x&gt; &#233;&#x263A;</failure>
      <failure type="failure" message="ST101">2. Test Case ID: Zz
- ST101 Server error</failure>
    </testcase>
    <testcase name="GET /v1/sessions/{id}/events" time="0.1">
      <skipped type="skipped" message="Not supported">No generation possible</skipped>
    </testcase>
  </testsuite>
</testsuites>`;

function runReport(overrides: Partial<RunReport> = {}): RunReport {
  return {
    schemathesis_version: '4.32.5',
    seed: '144483703164945644836392142852117667822',
    running_time: 12.34,
    stop_reason: 'completed',
    exit_code: 0,
    operations: { total: 46, selected: 46, tested: 46, errored: 0, skipped: 0 },
    phases: {
      examples: { status: 'success', skip_reason: null },
      coverage: { status: 'success', skip_reason: null },
      fuzzing: { status: 'success', skip_reason: null },
      stateful: { status: 'success', skip_reason: null },
    },
    test_cases: { generated: 1092, with_failures: 0, unique_failures: 0, errored: 0 },
    failures: [],
    errors: [],
    warnings: { missing_auth: [], missing_test_data: [] },
    ...overrides,
  };
}

describe('parseJunit', () => {
  const cases = parseJunit(junit);

  test('reads every test case, self-closing ones included', () => {
    expect(cases.map((testCase) => testCase.name)).toEqual([
      'GET /v1/health',
      'GET /v1/sessions/{id}',
      'GET /v1/sessions/{id}/events',
    ]);
    expect(cases[0]).toEqual({ name: 'GET /v1/health', timeSeconds: 0.601126, findings: [] });
  });

  test('keeps each failure with its code and decoded text', () => {
    const findings = cases[1]?.findings ?? [];
    expect(findings.map((finding) => [finding.kind, finding.message])).toEqual([
      ['failure', 'ST401'],
      ['failure', 'ST101'],
    ]);
    expect(findings[0]?.text).toContain(
      `curl -X GET -H 'Authorization: [Filtered]' "http://127.0.0.1:8080/v1/sessions/a&b" <x> é☺`,
    );
  });

  test('reads skips', () => {
    expect(cases[2]?.findings).toEqual([{ kind: 'skipped', message: 'Not supported', text: 'No generation possible' }]);
  });

  test('an empty or missing report has no test cases', () => {
    expect(parseJunit('')).toEqual([]);
  });
});

describe('parseRunReport', () => {
  test('keeps the 128-bit seed digit for digit', () => {
    const text = JSON.stringify({ ...runReport(), seed: 0 }).replace(
      '"seed":0',
      '"seed": 205250848107079444548996491790510640591',
    );
    expect(parseRunReport(text).seed).toBe('205250848107079444548996491790510640591');
  });
});

describe('verdict', () => {
  test('passes only a clean run', () => {
    expect(verdict(0, runReport())).toBe(0);
  });

  test('a failure of the target is 1, whatever else happened', () => {
    const failure = {
      code: 'ST101',
      title: 'Server error',
      severity: 'critical',
      count: 1,
      operations: ['GET /v1/health'],
    };
    expect(verdict(1, runReport({ failures: [failure] }))).toBe(1);
    expect(verdict(0, runReport({ failures: [failure] }))).toBe(1);
    expect(verdict(1, runReport({ failures: [failure], errors: [{ title: 'Network Error', count: 2 }] }))).toBe(1);
  });

  test('a run that could not be made or judged is 2', () => {
    // No report: the contract or the target could not be reached.
    expect(verdict(1, undefined)).toBe(2);
    expect(verdict(0, undefined)).toBe(2);
    // Errors without failures: requests that could not be made.
    expect(verdict(1, runReport({ errors: [{ title: 'Network Error', count: 2 }] }))).toBe(2);
    expect(verdict(0, runReport({ errors: [{ title: 'Network Error', count: 2 }] }))).toBe(2);
    // A warning the configuration fails on (a key refused everywhere), or the server gone mid-run.
    expect(verdict(1, runReport({ warnings: { missing_auth: ['GET /v1/sessions'] } }))).toBe(2);
    expect(verdict(0, runReport({ stop_reason: 'server_unavailable' }))).toBe(2);
  });
});

describe('schemathesisArguments', () => {
  const base = { target: 'http://127.0.0.1:8080', apiKey: 'sk_test_secret', maxExamples: 7, reportDir: '/r' };

  test('names the contract, the configuration, the budget and the reports, never the key', () => {
    const args = schemathesisArguments(base);
    expect(args.slice(0, 3)).toEqual(['--config-file', defaultConfigFile, 'run']);
    expect(args[3]).toMatch(/openapi[\\/]dist[\\/]openapi\.json$/);
    expect(args).toEqual(expect.arrayContaining(['--url', 'http://127.0.0.1:8080', '--max-examples', '7']));
    expect(args.join(' ')).toMatch(/--report-junit-path \/r[\\/]junit\.xml/);
    expect(args.join(' ')).not.toContain('sk_test_secret');
    expect(args).not.toContain('--seed');
    expect(args).not.toContain('--phases');
  });

  test('passes a seed, a phase selection and a time budget through', () => {
    const args = schemathesisArguments({ ...base, seed: '42', phases: ['examples', 'stateful'], maxTime: 90 });
    expect(args.join(' ')).toContain('--seed 42');
    expect(args.join(' ')).toContain('--phases examples,stateful');
    expect(args.join(' ')).toContain('--max-time 90');
    expect(schemathesisArguments(base)).not.toContain('--max-time');
  });
});

describe('outcomeLines', () => {
  test('say why the run ended, each phase, and the failures', () => {
    const failure = {
      code: 'ST202',
      title: 'Schema-valid request rejected',
      severity: 'high',
      count: 5,
      operations: ['POST /v1/sessions'],
    };
    const lines = outcomeLines({
      target: 'http://127.0.0.1:8080',
      maxExamples: 2,
      maxTime: 60,
      exitCode: 1,
      report: runReport({
        stop_reason: 'max_time',
        running_time: 60.2,
        failures: [failure],
        phases: {
          examples: { status: 'success', skip_reason: null },
          stateful: { status: 'skip', skip_reason: 'disabled' },
        },
      }),
      testCases: [],
    });
    expect(lines).toEqual([
      'Ran in 60 s, stopped at its time budget of 60 s.',
      'Phases: examples passed, stateful skipped (disabled).',
      'Operations: 46 of 46 tested; test cases: 1092 generated, 0 with failures, 0 errored.',
      'Failure ST202 Schema-valid request rejected (5): POST /v1/sessions',
    ]);
  });

  test('say when there is no report', () => {
    expect(
      outcomeLines({ target: 'http://127.0.0.1:9', maxExamples: 2, exitCode: 2, report: undefined, testCases: [] })[0],
    ).toContain('No run report');
  });
});

describe('progress', () => {
  const call = (phase: string | null, operation: string): CallRecord => ({ phase, operation, status: 200 });

  test('a line for each phase and for each operation a phase reaches, and a count between', () => {
    let clock = 0;
    const lines: string[] = [];
    const print = progressPrinter({ write: (line) => lines.push(line), now: () => clock, heartbeatSeconds: 10 });
    print(call('examples', 'GET /v1/health'));
    print(call('examples', 'GET /v1/health'));
    clock = 11_000;
    print(call('examples', 'GET /v1/health'));
    print(call('examples', 'GET /v1/sessions'));
    clock = 12_000;
    print(call('coverage', 'GET /v1/health'));
    expect(lines).toEqual([
      '[   0 s] examples phase',
      '[   0 s] examples  GET /v1/health  (operation 1 of the phase, 1 requests so far)',
      '[  11 s] examples  3 requests, 1 operations so far',
      '[  11 s] examples  GET /v1/sessions  (operation 2 of the phase, 4 requests so far)',
      '[  12 s] coverage phase',
      '[  12 s] coverage  GET /v1/health  (operation 1 of the phase, 1 requests so far)',
    ]);
  });

  test("reads the hooks' JSON lines and leaves anything else out", async () => {
    const stream = new PassThrough();
    const calls: CallRecord[] = [];
    readCallRecords(stream, (record) => calls.push(record));
    stream.end('{"phase":"coverage","operation":"GET /v1/sessions/{id}","status":404}\nnot json\n{"phase":1}\n');
    await new Promise((resolve) => stream.on('end', resolve).resume());
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([{ phase: 'coverage', operation: 'GET /v1/sessions/{id}', status: 404 }]);
  });
});

describe('renderSummary', () => {
  test('a clean run says so', () => {
    const page = renderSummary({
      target: 'http://127.0.0.1:8080',
      maxExamples: 100,
      exitCode: 0,
      report: runReport(),
      testCases: [],
    });
    expect(page).toContain('**passed** (exit code 0)');
    expect(page).toContain('--seed 144483703164945644836392142852117667822');
    expect(page).toContain('| stateful | passed |  |');
    expect(page).toMatch(/## Failures\n\nNone\./);
    expect(page).not.toContain('## Details');
  });

  test('a failing run lists each check, its operations and every failing case with its curl', () => {
    const report = runReport({
      exit_code: 1,
      phases: {
        examples: { status: 'failure', skip_reason: null },
        fuzzing: { status: 'skip', skip_reason: 'disabled' },
      },
      failures: [
        {
          code: 'ST401',
          title: 'API accepts invalid | authentication',
          severity: 'critical',
          count: 1,
          operations: ['GET /v1/sessions/{id}'],
        },
      ],
      warnings: { missing_test_data: ['GET /v1/sessions/{id}'], missing_auth: [] },
    });
    const page = renderSummary({
      target: 'http://127.0.0.1:8080',
      maxExamples: 5,
      exitCode: 1,
      report,
      testCases: parseJunit(junit),
    });
    expect(page).toContain('**FAILED** (exit code 1)');
    expect(page).toContain('| examples | FAILED |  |');
    expect(page).toContain('| fuzzing | skipped | disabled |');
    expect(page).toContain('| ST401 API accepts invalid \\| authentication | critical | 1 | `GET /v1/sessions/{id}` |');
    expect(page).toContain('- `missing_test_data`: `GET /v1/sessions/{id}`');
    expect(page).not.toContain('`missing_auth`');
    expect(page).toContain('### GET /v1/sessions/{id}');
    expect(page).toContain("curl -X GET -H 'Authorization: [Filtered]'");
    expect(page).not.toContain('### GET /v1/health');
    expect(page).not.toContain('### GET /v1/sessions/{id}/events');
  });

  test('a run that never tested says where to look', () => {
    const page = renderSummary({
      target: 'http://127.0.0.1:9',
      maxExamples: 5,
      exitCode: 2,
      report: undefined,
      testCases: [],
    });
    expect(page).toContain('**FAILED** (exit code 2)');
    expect(page).toContain('schemathesis.log');
  });
});
