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

/** "LIFE-013, LIFE-014" or the note that no requirement covers it. */
export function coveredBy(gap: CoverageGap): string {
  return gap.requirements.length === 0 ? 'no requirement covers it' : `covered by ${gap.requirements.join(', ')}`;
}

export function coverageLines(coverage: Coverage): string[] {
  const lines = ['Coverage of the contract:'];
  for (const [kind, label] of Object.entries(coverageLabels) as Array<[CoverageKind, string]>) {
    const { documented, seen } = coverage.summary[kind];
    lines.push(`  ${`${seen}/${documented}`.padStart(6)} ${label}`);
  }
  const statuses = coverage.operations.reduce((sum, operation) => sum + Object.keys(operation.statuses).length, 0);
  lines.push(`  ${String(statuses).padStart(6)} distinct operation and status pairs seen`);
  if (coverage.gaps.length > 0) {
    lines.push(`  gaps (${coverage.gaps.length}):`);
    coverage.gaps.forEach((gap) => lines.push(`    ${gapLabels[gap.kind]} ${gap.item}: ${coveredBy(gap)}`));
  }
  return lines;
}
