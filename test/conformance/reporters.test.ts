/**
 * The three reports: report.json round-trips, junit.xml is well-formed XML with one test case per
 * requirement and the right outcome elements, report.html is one self-contained page that escapes what
 * it shows.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, test } from 'vitest';
import { loadSuiteContract } from '../../conformance/harness/contract.js';
import { computeCoverage } from '../../conformance/harness/coverage.js';
import type { Exchange } from '../../conformance/harness/exchange.js';
import { type RequirementResult, type RunResult, summarize } from '../../conformance/harness/results.js';
import { renderSummary } from '../../conformance/reporters/console.js';
import { renderHtml } from '../../conformance/reporters/html.js';
import { reportFiles, writeReports } from '../../conformance/reporters/index.js';
import { renderJunit } from '../../conformance/reporters/junit.js';

const hostile = '<script>alert("x")</script> & \u0007 "quotes"';

function requirement(
  id: string,
  status: RequirementResult['status'],
  category: RequirementResult['category'],
): RequirementResult {
  return {
    id,
    level: id === 'PROB-005' ? 'SHOULD' : 'MUST',
    category,
    seed: 'Errors',
    provenance: 'stated',
    statement: `Statement of ${id}.`,
    checks: ['problems.every-error'],
    status,
    ...(status === 'skip'
      ? { reason: 'needs a key of another workspace', remedy: 'pass --api-key-b with a key of another workspace' }
      : {}),
    ...(status === 'error'
      ? {
          reason: 'setup failed: starting a session answered 500',
          remedy: 'fix the set-up, then run again with --only',
        }
      : {}),
    observations: [
      {
        check: 'problems.every-error',
        outcome: status,
        message: status === 'fail' ? `GET /v1/sessions → 404: ${hostile}` : 'as expected',
        kind: 'problem',
        expected: { status: 404 },
        got: { status: 200, note: hostile },
        evidence: [
          {
            id: 7,
            request: {
              method: 'GET',
              url: 'http://127.0.0.1:1/v1/sessions/ses_x',
              headers: { authorization: 'Bearer sk_test_…abcd' },
            },
            response: {
              status: 200,
              headers: { 'content-type': 'application/json' },
              body: `{"title":"${hostile.replaceAll('"', '\\"')}"}`,
            },
            durationMs: 3,
          },
        ],
      },
    ],
  };
}

const requirements = [
  requirement('PROB-001', 'fail', 'problems'),
  requirement('PROB-005', 'pass', 'problems'),
  requirement('ISO-001', 'skip', 'isolation'),
  requirement('LIFE-003', 'error', 'lifecycle'),
];

/** A run that read the session list and saw one unknown session, and received one delivery. */
function exchange(
  id: number,
  method: string,
  path: string,
  status: number,
  body: string,
  contentType = 'application/json',
): Exchange {
  return {
    id,
    check: 'lifecycle.run-to-completion',
    request: { method, url: `http://127.0.0.1:1${path}`, headers: {} },
    response: { status, headers: { 'content-type': contentType }, body },
    startedAt: 0,
    durationMs: 1,
  };
}

const coverage = computeCoverage({
  contract: loadSuiteContract(),
  baseUrl: 'http://127.0.0.1:1',
  exchanges: [
    exchange(1, 'GET', '/v1/sessions', 200, '{"items":[],"next_cursor":null}'),
    exchange(
      2,
      'GET',
      '/v1/sessions/ses_x',
      404,
      `{"type":"https://example.test/problems/not-found","title":"${hostile.replaceAll('"', '\\"')}","status":404}`,
      'application/problem+json',
    ),
  ],
  deliveries: [{ headers: { 'x-service-event': 'session.complete' }, body: '{"event":"session.complete","data":{}}' }],
});

const result: RunResult = {
  suite: { name: 'boardkit conformance', version: '0.1.0', contractVersion: '1.0.0' },
  target: {
    baseUrl: 'http://127.0.0.1:1',
    live: true,
    liveEvidence: 'GET … answered 404',
    announced: {},
    testControl: false,
    timeScale: 1,
    clockControllable: false,
    secondKey: false,
  },
  profile: { name: 'default', description: 'Accepts every published variant.' },
  selection: [],
  startedAt: '2026-11-21T10:00:00.000Z',
  finishedAt: '2026-11-21T10:00:02.500Z',
  durationMs: 2500,
  requests: 12,
  summary: summarize(requirements),
  requirements,
  checks: [],
  coverage,
  exitCode: 1,
};

describe('junit.xml', () => {
  const xml = renderJunit(result);

  test('is well-formed XML', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
  });

  test('has one suite per category and one case per requirement, with its outcome', () => {
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as {
      testsuites: { tests: string; failures: string; testsuite: Array<{ name: string; testcase?: unknown }> };
    };
    expect(parsed.testsuites).toMatchObject({ tests: '4', failures: '1' });
    const withCases = parsed.testsuites.testsuite.filter((suite) => suite.testcase !== undefined);
    const cases = withCases.flatMap((suite) => [suite.testcase].flat() as Array<Record<string, unknown>>);
    expect(withCases.map((suite) => suite.name)).toEqual([
      'conformance.problems',
      'conformance.lifecycle',
      'conformance.isolation',
    ]);
    expect(cases.map((one) => String(one['name']).slice(0, 8))).toEqual([
      'PROB-001',
      'PROB-005',
      'LIFE-003',
      'ISO-001 ',
    ]);
    expect(cases[0]?.['failure']).toBeDefined();
    expect(cases[1]?.['failure']).toBeUndefined();
    expect(cases[2]?.['error']).toBeDefined();
    expect((cases[3]?.['skipped'] as Record<string, string>)['message']).toBe(
      'needs a key of another workspace; to check it: pass --api-key-b with a key of another workspace',
    );
  });

  test('states the verdict as properties of a suite of its own, outside the counts', () => {
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      renderJunit(incomplete),
    ) as {
      testsuites: {
        testsuite: Array<{
          name: string;
          tests: string;
          properties?: { property: Array<{ name: string; value: string }> };
        }>;
      };
    };
    const [verdict] = parsed.testsuites.testsuite;
    expect(verdict).toMatchObject({ name: 'conformance.verdict', tests: '0' });
    expect(verdict?.properties?.property).toEqual([
      { name: 'verdict', value: 'incomplete' },
      {
        name: 'verdict-line',
        value: 'Verdict: incomplete (no MUST requirement failed, but 2 could not be checked: ISO-001, LIFE-003).',
      },
      { name: 'exit-code', value: '3' },
      { name: 'not-checked.ISO-001', value: 'pass --api-key-b with a key of another workspace' },
      { name: 'not-checked.LIFE-003', value: 'fix the set-up, then run again with --only' },
    ]);
  });
});

/** The same run without its failure: nothing failed, two MUST requirements were not checked. */
const incompleteRequirements = requirements.filter((one) => one.status !== 'fail');
const incomplete: RunResult = {
  ...result,
  requirements: incompleteRequirements,
  summary: summarize(incompleteRequirements),
  exitCode: 3,
};

describe('the verdict', () => {
  test('has three outcomes, decided by the MUST requirements alone', () => {
    expect(result.summary.verdict).toBe('not conformant');
    expect(incomplete.summary.verdict).toBe('incomplete');
    expect(incomplete.summary.mustUnchecked).toEqual([
      {
        id: 'ISO-001',
        status: 'skip',
        reason: 'needs a key of another workspace',
        remedy: 'pass --api-key-b with a key of another workspace',
      },
      {
        id: 'LIFE-003',
        status: 'error',
        reason: 'setup failed: starting a session answered 500',
        remedy: 'fix the set-up, then run again with --only',
      },
    ]);
    const passed = requirements.filter((one) => one.status === 'pass');
    expect(summarize(passed).verdict).toBe('conformant');
  });

  test('is the last line of the console summary, after what would enable each MUST not checked', () => {
    const lines = renderSummary(incomplete).trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      'Verdict: incomplete (no MUST requirement failed, but 2 could not be checked: ISO-001, LIFE-003).',
    );
    expect(lines).toContain('  ISO-001 (skip): pass --api-key-b with a key of another workspace');
    expect(renderSummary(result).trimEnd().split('\n').at(-1)).toBe(
      'Verdict: not conformant (MUST requirements failed: PROB-001).',
    );
  });

  test('every skip in the console says how to un-skip it', () => {
    const text = renderSummary(incomplete);
    expect(text).toContain(
      'skip ISO-001\n       needs a key of another workspace\n       to check it: pass --api-key-b with a key of another workspace',
    );
  });

  test('report.html heads with it and lists the MUST not checked with their remedies', () => {
    const html = renderHtml(incomplete);
    expect(html).toContain('data-verdict="incomplete"');
    expect(html).toContain('MUST requirements not checked (2)');
    expect(html).toContain('<td>pass --api-key-b with a key of another workspace</td>');
  });
});

describe('report.html', () => {
  const html = renderHtml(result);

  test('needs no external asset', () => {
    expect(html).not.toMatch(/<(link|img|iframe)\b/i);
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import|url\(/i);
  });

  test('escapes what the target sent', () => {
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert');
    expect(html.match(/<script>/g)?.length).toBe(1);
  });

  test('shows each requirement with its status, the verdict and the evidence', () => {
    for (const one of requirements) {
      expect(html).toContain(`data-status="${one.status}"`);
      expect(html).toContain(one.id);
    }
    expect(html).toContain('Verdict: not conformant (MUST requirements failed: PROB-001).');
    expect(html).toContain('GET http://127.0.0.1:1/v1/sessions/ses_x');
  });
});

describe('the coverage of a run', () => {
  const html = renderHtml(result);

  test('report.html shows the counts, every gap with the requirements that would cover it and their status, linked to their rows', () => {
    expect(html).toContain('<section id="coverage">');
    expect(html).toContain('1/46');
    expect(html).toContain(
      '<code>getSession (GET /v1/sessions/{id})</code></td><td><a href="#LIFE-003">LIFE-003</a> <span class="muted">(error)</span>, POLL-001 <span class="muted">(not selected)</span>',
    );
    expect(html).toContain('<td>problem type</td><td><code>conflict</code></td>');
    expect(html).toContain(`id="PROB-001"`);
  });

  test('the console summary lists the counts and the gaps', () => {
    const text = renderSummary(result);
    expect(text).toContain('Coverage of the contract:');
    expect(text).toMatch(/\b1\/46 operations answered with a success/);
    expect(text).toContain('operation deleteSession (DELETE /v1/sessions/{id}): covered by LIFE-010 (not selected)');
    expect(text).toContain(
      'operation getSession (GET /v1/sessions/{id}): covered by LIFE-003 (error), POLL-001 (not selected)',
    );
    expect(text).toContain('webhook event session.cancelled: covered by HOOK-007 (not selected)');
    expect(text).toContain('stream event session.cancelled: covered by SSE-008 (not selected)');
  });
});

test('writeReports writes the three files, report.json holding the result', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'boardkit-reports-'));
  try {
    const files = await writeReports(result, folder);
    expect(files.map((file) => file.slice(folder.length + 1)).sort()).toEqual(Object.values(reportFiles).sort());
    expect(JSON.parse(await readFile(join(folder, reportFiles.json), 'utf8'))).toEqual(result);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
