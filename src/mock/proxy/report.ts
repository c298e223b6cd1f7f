/**
 * The report of a proxy run, made when it stops: the verdict and exit code, the violations with their
 * evidence, and the coverage the traffic achieved (`report-files.ts` writes it).
 * @module
 */
import type { TrafficCoverage } from './coverage.js';
import { violationKinds, type Violation, type ViolationKind } from './findings.js';
import type { Traffic } from './traffic.js';

/** Why the run stopped. */
export type StopReason = 'signal' | 'duration' | 'upstream-gone' | 'stopped';

export interface ProxyReport {
  tool: { name: string; version: string };
  contractVersion: string;
  upstream: string;
  proxy: string;
  startedAt: string;
  durationMs: number;
  stoppedBy: StopReason;
  failOn: ViolationKind[];
  /** `fail`: a violation `--fail-on` counts; `no answer`: the upstream never answered, nothing was checked. */
  verdict: 'pass' | 'fail' | 'no answer';
  /** 0 pass, 1 fail, 2 the upstream never answered (the run could not check anything). */
  exitCode: 0 | 1 | 2;
  summary: {
    exchanges: number;
    unanswered: number;
    violations: Record<ViolationKind, number>;
    counted: number;
  };
  violations: Violation[];
  coverage: TrafficCoverage;
}

export interface ReportInput {
  traffic: Traffic;
  tool: ProxyReport['tool'];
  contractVersion: string;
  upstream: string;
  proxy: string;
  startedAt: Date;
  endedAt: Date;
  stoppedBy: StopReason;
  failOn: ViolationKind[];
}

export function buildReport(input: ReportInput): ProxyReport {
  const { traffic } = input;
  const counted = traffic.violations.filter((violation) => violation.counted).length;
  const verdict = counted > 0 ? 'fail' : traffic.upstreamSeen ? 'pass' : 'no answer';
  const byKind = Object.fromEntries(
    violationKinds.map((kind) => [kind, traffic.violations.filter((violation) => violation.kind === kind).length]),
  ) as Record<ViolationKind, number>;
  return {
    tool: input.tool,
    contractVersion: input.contractVersion,
    upstream: input.upstream,
    proxy: input.proxy,
    startedAt: input.startedAt.toISOString(),
    durationMs: input.endedAt.getTime() - input.startedAt.getTime(),
    stoppedBy: input.stoppedBy,
    failOn: input.failOn,
    verdict,
    exitCode: verdict === 'fail' ? 1 : verdict === 'pass' ? 0 : 2,
    summary: { exchanges: traffic.exchanges, unanswered: traffic.unanswered, violations: byKind, counted },
    violations: traffic.violations,
    coverage: traffic.tally.result(),
  };
}

/** The one line a run ends with. */
export function verdictLine(report: ProxyReport): string {
  const { summary, coverage } = report;
  const calls = `${summary.exchanges} requests relayed, ${coverage.summary.operations.seen}/${coverage.summary.operations.documented} operations called`;
  switch (report.verdict) {
    case 'pass':
      return `PASS: no counted violation (${calls}; --fail-on ${report.failOn.join(',') || 'none'})`;
    case 'fail':
      return `FAIL: ${summary.counted} violations (${calls}; --fail-on ${report.failOn.join(',')})`;
    case 'no answer':
      return `NO ANSWER: the upstream ${report.upstream} never answered, so nothing was checked`;
  }
}
