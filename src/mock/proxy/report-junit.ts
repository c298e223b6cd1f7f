/**
 * junit.xml of a proxy run (the Surefire schema CI systems read): one test case per operation of the
 * contract. An operation the traffic called passes, or fails with the violations `--fail-on` counts
 * (the others are in its `system-out`); one it never called is skipped, so the CI view shows the
 * coverage too. Requests outside the contract are one more case. The verdict, the exit code and the
 * coverage counts are properties of a suite of their own, as the conformance suite's junit.xml has them.
 * @module
 */
import type { Violation } from './findings.js';
import type { ProxyReport } from './report.js';
import { xmlText } from '../../markup.js';

function describe(violation: Violation): string {
  const lines = [
    `#${violation.exchange} ${violation.method} ${violation.target} → ${violation.status ?? 'no answer'}`,
    `  [${violation.kind}] ${violation.pointer} ${violation.message}`,
  ];
  if (violation.expected !== undefined) {
    lines.push(`  expected: ${JSON.stringify(violation.expected)}`);
  }
  if (violation.got !== undefined) {
    lines.push(`  got:      ${JSON.stringify(violation.got)}`);
  }
  return lines.join('\n');
}

function testCase(name: string, calls: number, violations: readonly Violation[]): string {
  const open = `    <testcase classname="proxy.operations" name="${xmlText(name)}" time="0">`;
  const counted = violations.filter((violation) => violation.counted);
  const others = violations.filter((violation) => !violation.counted);
  const parts: string[] = [];
  if (calls === 0) {
    parts.push('      <skipped message="not called by the traffic"/>');
  } else if (counted.length > 0) {
    const message = xmlText(
      `${counted.length} violations: ${counted[0]!.pointer} ${counted[0]!.message}`.slice(0, 500),
    );
    parts.push(
      `      <failure message="${message}" type="${counted[0]!.kind}">${xmlText(counted.map(describe).join('\n'))}</failure>`,
    );
  }
  if (others.length > 0) {
    parts.push(
      `      <system-out>${xmlText(`not counted by --fail-on:\n${others.map(describe).join('\n')}`)}</system-out>`,
    );
  }
  return parts.length === 0 ? `${open}</testcase>` : [open, ...parts, '    </testcase>'].join('\n');
}

export function renderJunit(report: ProxyReport): string {
  const { coverage } = report;
  const cases = coverage.operations.map((operation) =>
    testCase(
      `${operation.operationId} (${operation.method} ${operation.path})`,
      operation.calls,
      report.violations.filter((violation) => violation.operation === operation.operationId),
    ),
  );
  const outside = report.violations.filter((violation) => violation.operation === undefined);
  if (coverage.unknownRequests > 0) {
    cases.push(testCase('requests outside the contract', coverage.unknownRequests, outside));
  }
  const failures = cases.filter((one) => one.includes('<failure')).length;
  const skipped = cases.filter((one) => one.includes('<skipped')).length;
  const timestamp = report.startedAt.slice(0, 19);
  const property = (name: string, value: string | number): string =>
    `      <property name="${name}" value="${xmlText(String(value))}"/>`;
  const summary = Object.entries(coverage.summary).map(([kind, counts]) =>
    property(`coverage.${kind}`, `${counts.seen}/${counts.documented}`),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlText(`${report.tool.name} ${report.tool.version} in front of ${report.upstream}`)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="proxy.verdict" tests="0" failures="0" errors="0" skipped="0" time="0" timestamp="${timestamp}">`,
    '    <properties>',
    property('verdict', report.verdict),
    property('exit-code', report.exitCode),
    property('fail-on', report.failOn.join(',') || 'none'),
    property('stopped-by', report.stoppedBy),
    property('exchanges', report.summary.exchanges),
    ...summary,
    '    </properties>',
    '  </testsuite>',
    `  <testsuite name="proxy.operations" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="0" timestamp="${timestamp}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
