/**
 * The readable summary of a run (`summary.md`): the verdict, each phase, the failures grouped by check with
 * the operations they hit, errors and warnings, then every failing test case with its reproducing `curl`,
 * taken from the JSON run report and the JUnit report Schemathesis writes.
 * @module
 */
import type { JunitTestCase } from './junit.js';

/** The fields of Schemathesis's JSON run report (`--report json`) that the summary reads. */
export interface RunReport {
  schemathesis_version: string;
  /** Decimal digits (see `parseRunReport`). */
  seed: string | null;
  running_time: number | null;
  stop_reason: string;
  exit_code: number;
  operations: { total: number; selected: number; tested: number; errored: number; skipped: number } | null;
  phases: Record<string, { status: string; skip_reason: string | null }> | null;
  test_cases: { generated: number; with_failures: number; unique_failures: number; errored: number };
  failures: Array<{ code: string; title: string; severity: string; count: number; operations: string[] }>;
  errors: Array<{ title: string; count: number }>;
  warnings: Record<string, string[]>;
}

export interface SummaryInput {
  target: string;
  maxExamples: number;
  /** The time budget in seconds, when the run had one. */
  maxTime?: number | undefined;
  /** The exit code the command ends with. */
  exitCode: number;
  report: RunReport | undefined;
  testCases: JunitTestCase[];
}

const phaseMarks: Record<string, string> = { success: 'passed', failure: 'FAILED', error: 'ERROR', skip: 'skipped' };

/** Why the run ended, in words (Schemathesis's `stop_reason`). */
function stopExplanation(report: RunReport, maxTime: number | undefined): string {
  switch (report.stop_reason) {
    case 'completed':
      return 'ran to completion';
    case 'max_time':
      return `stopped at its time budget${maxTime === undefined ? '' : ` of ${maxTime} s`}`;
    case 'interrupted':
      return 'interrupted before the end';
    case 'failure_limit':
      return 'stopped at the failure limit';
    case 'server_unavailable':
      return 'stopped: the server stopped responding';
    default:
      return report.stop_reason;
  }
}

/**
 * What ran, in a few lines for the console: why the run ended, each phase, the operations and test cases,
 * and the failures and errors.
 */
export function outcomeLines(input: SummaryInput): string[] {
  const report = input.report;
  if (report === undefined) {
    return ['No run report: Schemathesis stopped before testing (see schemathesis.log).'];
  }
  const seconds = report.running_time === null ? '' : ` in ${Math.round(report.running_time)} s`;
  const phases = Object.entries(report.phases ?? {}).map(
    ([phase, { status, skip_reason }]) =>
      `${phase} ${phaseMarks[status] ?? status}${skip_reason === null ? '' : ` (${skip_reason})`}`,
  );
  const operations = report.operations;
  return [
    `Ran${seconds}, ${stopExplanation(report, input.maxTime)}.`,
    `Phases: ${phases.join(', ') || 'none'}.`,
    `Operations: ${operations?.tested ?? 0} of ${operations?.selected ?? 0} tested; test cases: ${report.test_cases.generated} ` +
      `generated, ${report.test_cases.with_failures} with failures, ${report.test_cases.errored} errored.`,
    ...report.failures.map(
      (failure) => `Failure ${failure.code} ${failure.title} (${failure.count}): ${failure.operations.join(', ')}`,
    ),
    ...report.errors.map((error) => `Error: ${error.title} (${error.count})`),
  ];
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function overview(input: SummaryInput, report: RunReport): string[] {
  const seconds = report.running_time === null ? 'unknown' : `${report.running_time.toFixed(1)} s`;
  const operations = report.operations;
  const budget = input.maxTime === undefined ? '' : ` and \`--max-time ${input.maxTime}\``;
  return [
    `Schemathesis ${report.schemathesis_version} against \`${input.target}\` with \`--max-examples ${input.maxExamples}\`${budget}, ` +
      `seed \`${report.seed ?? 'none'}\`, ${seconds}: ${stopExplanation(report, input.maxTime)}.`,
    '',
    operations === null
      ? 'No operations were loaded.'
      : `Operations: ${operations.tested} tested of ${operations.selected} selected (${operations.total} in the ` +
        `contract), ${operations.skipped} skipped, ${operations.errored} errored. Test cases: ` +
        `${report.test_cases.generated} generated, ${report.test_cases.with_failures} with failures ` +
        `(${report.test_cases.unique_failures} unique), ${report.test_cases.errored} errored.`,
    '',
    `Reproduce this run with \`--seed ${report.seed ?? '<seed>'}\` and the same options; the console output is in ` +
      '`schemathesis.log`.',
    '',
    '| phase | result | note |',
    '|---|---|---|',
    ...Object.entries(report.phases ?? {}).map(
      ([phase, { status, skip_reason }]) => `| ${phase} | ${phaseMarks[status] ?? status} | ${skip_reason ?? ''} |`,
    ),
  ];
}

function findings(report: RunReport): string[] {
  const lines = ['', '## Failures', ''];
  if (report.failures.length === 0) {
    lines.push('None.');
  } else {
    lines.push('| check | severity | count | operations |', '|---|---|---|---|');
    for (const failure of report.failures) {
      const operations = failure.operations.map((operation) => `\`${operation}\``).join(', ');
      lines.push(
        `| ${failure.code} ${escapeCell(failure.title)} | ${failure.severity} | ${failure.count} | ${operations} |`,
      );
    }
  }
  if (report.errors.length > 0) {
    lines.push('', '## Errors', '', ...report.errors.map((error) => `- ${error.title} (${error.count})`));
  }
  const warnings = Object.entries(report.warnings).filter(([, operations]) => operations.length > 0);
  if (warnings.length > 0) {
    lines.push('', '## Warnings', '');
    for (const [warning, operations] of warnings) {
      lines.push(`- \`${warning}\`: ${operations.map((operation) => `\`${operation}\``).join(', ')}`);
    }
  }
  return lines;
}

function details(testCases: JunitTestCase[]): string[] {
  const failing = testCases.filter((testCase) => testCase.findings.some((finding) => finding.kind !== 'skipped'));
  if (failing.length === 0) {
    return [];
  }
  const lines = ['', '## Details', ''];
  for (const testCase of failing) {
    lines.push(`### ${testCase.name}`, '');
    for (const finding of testCase.findings.filter((each) => each.kind !== 'skipped')) {
      lines.push('```text', finding.text, '```', '');
    }
  }
  return lines;
}

export function renderSummary(input: SummaryInput): string {
  const verdict = input.exitCode === 0 ? 'passed' : 'FAILED';
  const lines = ['# Fuzz report', '', `**${verdict}** (exit code ${input.exitCode})`, ''];
  if (input.report === undefined) {
    lines.push(
      `Schemathesis wrote no run report for \`${input.target}\`: it stopped before testing. ` +
        'Its console output is in `schemathesis.log`.',
    );
  } else {
    lines.push(...overview(input, input.report), ...findings(input.report));
  }
  lines.push(...details(input.testCases));
  return `${lines.join('\n').trimEnd()}\n`;
}
