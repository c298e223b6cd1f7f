/**
 * `boardkit fuzz` as users run it (`node bin/boardkit.js fuzz`, on the built `lib/`): bad arguments are a
 * one-line message and a nonzero exit, a run that cannot be made exits 2, and a run that finds a failure
 * exits 1 with the failure in `summary.md` and the JUnit report. The failing target is the project's Prism mock, which accepts any bearer token:
 * Schemathesis's `ignored_auth` check must catch that. The run is limited to `GET /v1/sessions/{id}` and
 * the examples phase by a test configuration, so it takes seconds.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { parseJunit, parseRunReport, reportFiles } from '../../src/fuzz/index.js';
import { startMock, type RunningMock } from '../../src/mock/mock.js';
import { freePort } from '../../src/mock/prism.js';
import { runBoardkit, type Run } from '../support/boardkit.js';

function boardkit(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return runBoardkit(args, { BOARDKIT_API_KEY: '', ...env });
}

describe('arguments', () => {
  test.each([
    [['--api-key', 'sk_test_x'], "required option '--target <url>' not specified"],
    [['--target', 'ftp://127.0.0.1'], 'expected an http(s) URL'],
    [['--target', 'not a url'], 'expected an http(s) URL'],
    [['--target', 'http://127.0.0.1:9', '--api-key', 'k', '--max-examples', '0'], 'expected a positive integer'],
    [['--target', 'http://127.0.0.1:9', '--api-key', 'k', '--phases', 'examples,unit'], 'unknown phase unit'],
    [['--target', 'http://127.0.0.1:9', '--api-key', 'k', '--seed', '-3'], 'expected the decimal seed'],
    [['--target', 'http://127.0.0.1:9', '--api-key', 'k', '--max-time', '0'], 'expected a positive integer'],
  ])('fuzz %j fails with a message', async (args, message) => {
    const run = await boardkit(['fuzz', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  test('without a key the run cannot be made: exit 2', async () => {
    const run = await boardkit(['fuzz', '--target', 'http://127.0.0.1:9']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('boardkit: an API key is required: pass --api-key or set BOARDKIT_API_KEY\n');
  });

  test('a target that does not answer cannot be tested: exit 2', async () => {
    const reportDir = await mkdtemp(join(tmpdir(), 'boardkit-fuzz-down-'));
    try {
      const run = await boardkit(
        [
          'fuzz',
          '--target',
          'http://127.0.0.1:9',
          '--max-examples',
          '1',
          '--phases',
          'examples',
          '--report-dir',
          reportDir,
        ],
        { BOARDKIT_API_KEY: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc' },
      );
      expect(run.code, run.stdout).toBe(2);
      expect(run.stdout).toContain('boardkit fuzz: could not run (exit 2)');
    } finally {
      await rm(reportDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a failing target', () => {
  let mock: RunningMock;
  let reportDir: string;

  beforeAll(async () => {
    mock = await startMock({ port: await freePort(), output: 'pipe' });
    reportDir = await mkdtemp(join(tmpdir(), 'boardkit-fuzz-cli-'));
  }, 180_000);

  afterAll(async () => {
    await mock?.stop();
    if (reportDir !== undefined) {
      await rm(reportDir, { recursive: true, force: true });
    }
  });

  test('exits 1 and reports the failure, its operation and its curl', async () => {
    const config = join(packageRoot, 'test', 'fixtures', 'fuzz', 'get-session-only.toml');
    const run = await boardkit(
      [
        'fuzz',
        '--target',
        mock.baseUrl,
        '--max-examples',
        '1',
        '--phases',
        'examples',
        '--config',
        config,
        '--report-dir',
        reportDir,
      ],
      { BOARDKIT_API_KEY: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc' },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('boardkit fuzz: FAILED (exit 1)');
    expect(run.stdout).toContain('Failure ST401 API accepts invalid authentication (1): GET /v1/sessions/{id}');
    expect(run.stdout).toContain(`See ${join(reportDir, reportFiles.summary)}`);
    // The key travels in the environment and Schemathesis filters it out of what it prints.
    expect(run.stdout).not.toContain('sk_test_4eC39HqLyjWDarjtT1zdp7dc');

    const report = parseRunReport(await readFile(join(reportDir, reportFiles.json), 'utf8'));
    expect(report.operations?.selected).toBe(1);
    expect(report.failures.map((failure) => [failure.code, failure.operations])).toEqual([
      ['ST401', ['GET /v1/sessions/{id}']],
    ]);

    const cases = parseJunit(await readFile(join(reportDir, reportFiles.junit), 'utf8'));
    const failing = cases.find((testCase) => testCase.name === 'GET /v1/sessions/{id}');
    expect(failing?.findings.map((finding) => finding.message)).toEqual(['ST401']);

    const summary = await readFile(join(reportDir, reportFiles.summary), 'utf8');
    expect(summary).toContain('**FAILED** (exit code 1)');
    expect(summary).toContain('| ST401 API accepts invalid authentication | critical | 1 | `GET /v1/sessions/{id}` |');
    expect(summary).toMatch(/curl -X GET .*\/v1\/sessions\//);
    expect(await readFile(join(reportDir, reportFiles.log), 'utf8')).toContain('Schemathesis v4.32.5');
  }, 180_000);
});
