/**
 * Live progress on stderr and the summary on stdout: one line per finished check, then each failed,
 * errored and skipped requirement with its reason and what would let a run check it, the coverage of the
 * contract with its gaps, then the counts and, last, the verdict (conformant, not conformant, incomplete).
 * @module
 */
import type { ProgressEvent } from '../runner.js';
import { type RunResult, verdictLine } from '../harness/results.js';
import { coverageLines } from './coverage-text.js';

const marks = { pass: 'ok  ', fail: 'FAIL', skip: 'skip', error: 'ERR ' } as const;

export function progressLine(event: ProgressEvent): string | undefined {
  switch (event.type) {
    case 'target': {
      const { target } = event;
      const clock =
        target.control === undefined
          ? 'no time control'
          : `time scale ${target.clock.scale()}${target.clock.controllable ? ', adjustable' : ''}`;
      return `target ${target.baseUrl}: ${target.live ? 'live implementation' : 'mock (no state)'}, ${clock}${target.hasSecondKey ? ', second workspace key' : ''}`;
    }
    case 'check-start':
      return undefined;
    case 'note':
      return `      ${event.check.name}: ${event.message}`;
    case 'check-end': {
      const { result } = event;
      const seconds = (result.durationMs / 1000).toFixed(1).padStart(5);
      return `${marks[result.status]} ${seconds}s  ${result.name}${result.reason === undefined ? '' : `  (${result.reason})`}`;
    }
  }
}

export function renderSummary(result: RunResult): string {
  const lines: string[] = [''];
  for (const requirement of result.requirements.filter((one) => one.status === 'fail' || one.status === 'error')) {
    const first = requirement.observations.find((observation) => observation.outcome === requirement.status);
    lines.push(`${marks[requirement.status]} ${requirement.id} [${requirement.level}] ${requirement.statement}`);
    lines.push(`       ${requirement.status === 'fail' ? (first?.message ?? '') : (requirement.reason ?? '')}`);
    if (requirement.status === 'error' && requirement.remedy !== undefined) {
      lines.push(`       to check it: ${requirement.remedy}`);
    }
  }
  // Skips share a handful of reasons; one entry per reason and remedy keeps the summary readable.
  const skipped = new Map<string, { reason: string; remedy: string | undefined; ids: string[] }>();
  for (const requirement of result.requirements.filter((one) => one.status === 'skip')) {
    const reason = requirement.reason ?? 'no reason given';
    const key = `${reason}\n${requirement.remedy ?? ''}`;
    const entry = skipped.get(key) ?? { reason, remedy: requirement.remedy, ids: [] };
    entry.ids.push(requirement.id);
    skipped.set(key, entry);
  }
  for (const { reason, remedy, ids } of skipped.values()) {
    lines.push(`skip ${ids.join(', ')}`);
    lines.push(`       ${reason}`);
    if (remedy !== undefined) {
      lines.push(`       to check it: ${remedy}`);
    }
  }
  if (result.coverage !== undefined) {
    lines.push(
      '',
      ...coverageLines(
        result.coverage,
        new Map(result.requirements.map((requirement) => [requirement.id, requirement.status])),
      ),
    );
  }
  const { requirements, byLevel } = result.summary;
  lines.push('');
  lines.push(
    `${requirements.total} requirements: ${requirements.pass} pass, ${requirements.fail} fail, ${requirements.error} error, ${requirements.skip} skip (${result.requests} requests, ${(result.durationMs / 1000).toFixed(1)} s)`,
  );
  for (const level of ['MUST', 'SHOULD', 'MAY'] as const) {
    lines.push(
      `  ${level.padEnd(6)} ${byLevel[level].pass} pass, ${byLevel[level].fail} fail, ${byLevel[level].error} error, ${byLevel[level].skip} skip`,
    );
  }
  const { mustUnchecked, verdict } = result.summary;
  if (verdict === 'incomplete') {
    lines.push('', `MUST requirements not checked (${mustUnchecked.length}), and what would enable each:`);
    mustUnchecked.forEach((one) => lines.push(`  ${one.id} (${one.status}): ${one.remedy}`));
    if (result.exitCode === 0) {
      lines.push('  --allow-incomplete: an incomplete run exits 0.');
    }
  }
  lines.push(verdictLine(result.summary));
  return `${lines.join('\n')}\n`;
}
