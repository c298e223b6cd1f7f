/**
 * The coverage of a run as text lines, for the console summary: one line per kind with the counts, then
 * each gap with the requirements that would cover it.
 * @module
 */
import type { Coverage, CoverageGap } from '../harness/coverage.js';
import type { CoverageKind } from '../requirements/coverage.js';

/** How each kind of item is named in the reports. */
export const coverageLabels: Record<CoverageKind, string> = {
  operations: 'operations answered with a success',
  startRequestVariants: 'start request variants',
  startResponseVariants: 'start response variants',
  webhookEnvelopes: 'webhook envelope forms',
  problemTypes: 'problem types',
  webhookEvents: 'webhook events received',
  streamEvents: 'stream events received',
};

/** How one item of each kind is named in a gap. */
export const gapLabels: Record<CoverageKind, string> = {
  operations: 'operation',
  startRequestVariants: 'start request variant',
  startResponseVariants: 'start response variant',
  webhookEnvelopes: 'webhook envelope',
  problemTypes: 'problem type',
  webhookEvents: 'webhook event',
  streamEvents: 'stream event',
};

/** The status of each requirement in the run; one that is missing was not selected. */
export type RunStatuses = ReadonlyMap<string, string>;

/** Why a requirement did not close its gap in this run: its status, or that it was not selected. */
export function statusNote(id: string, statuses: RunStatuses): string {
  return statuses.get(id) ?? 'not selected';
}

/** "covered by VER-004 (skip), RATE-001 (not selected)" or the note that no requirement covers it. */
export function coveredBy(gap: CoverageGap, statuses: RunStatuses = new Map()): string {
  return gap.requirements.length === 0
    ? 'no requirement covers it'
    : `covered by ${gap.requirements.map((id) => `${id} (${statusNote(id, statuses)})`).join(', ')}`;
}

export function coverageLines(coverage: Coverage, statuses: RunStatuses = new Map()): string[] {
  const lines = ['Coverage of the contract:'];
  for (const [kind, label] of Object.entries(coverageLabels) as Array<[CoverageKind, string]>) {
    const { documented, seen } = coverage.summary[kind];
    lines.push(`  ${`${seen}/${documented}`.padStart(6)} ${label}`);
  }
  const pairs = coverage.operations.reduce((sum, operation) => sum + Object.keys(operation.statuses).length, 0);
  lines.push(`  ${String(pairs).padStart(6)} distinct operation and status pairs seen`);
  if (coverage.gaps.length > 0) {
    lines.push(`  gaps (${coverage.gaps.length}):`);
    coverage.gaps.forEach((gap) => lines.push(`    ${gapLabels[gap.kind]} ${gap.item}: ${coveredBy(gap, statuses)}`));
  }
  return lines;
}
