/**
 * `boardkit lint`: Redocly (recommended rules and RFC 7807 problem details, `redocly.yaml`) and Spectral
 * (`spectral:oas` and the house ruleset, `openapi/lint/ruleset.yaml`) over the contract, run side by side
 * as child processes, their findings merged into one list. The bar is zero errors and zero warnings
 * (openapi/README.md "Changing the contract").
 * @module
 */
import { join, resolve } from 'node:path';
import { contractRoot, packageRoot } from '../contract/paths.js';
import { runRedocly } from './redocly.js';
import type { LintFinding } from './finding.js';
import { runSpectral } from './spectral.js';

export type { LintFinding } from './finding.js';

export interface LintResult {
  findings: LintFinding[];
  errors: number;
  warnings: number;
}

export interface LintOptions {
  /** The contract's root file, relative to `cwd`; the kit's `openapi/openapi.yaml` by default. */
  root?: string;
  /** The project root both tools run in and locations are relative to; the package root by default. */
  cwd?: string;
}

/** Lints the contract with both tools; rejects only if a tool cannot run or its report cannot be read. */
export async function lintContract(options: LintOptions = {}): Promise<LintResult> {
  const cwd = resolve(options.cwd ?? packageRoot);
  const root = options.root === undefined ? contractRoot : resolve(cwd, options.root);
  const [redocly, spectral] = await Promise.all([
    runRedocly({ cwd, root, config: join(packageRoot, 'redocly.yaml') }),
    runSpectral({
      cwd,
      root,
      ruleset: join(packageRoot, 'openapi', 'lint', 'ruleset.yaml'),
      resolver: join(packageRoot, 'openapi', 'lint', 'resolver.cjs'),
    }),
  ]);
  const findings = [...redocly, ...spectral].sort(compareFindings);
  return {
    findings,
    errors: findings.filter((finding) => finding.severity === 'error').length,
    warnings: findings.filter((finding) => finding.severity === 'warning').length,
  };
}

/** One line per finding (location, severity, tool and rule, message), then the totals. */
export function formatFindings(result: LintResult): string {
  const rows = result.findings.map((finding) => [
    finding.location,
    finding.severity,
    `${finding.tool}/${finding.rule}`,
    finding.message.replace(/\s*\n\s*/g, ' '),
  ]);
  const widths = [0, 1, 2].map((column) => Math.max(0, ...rows.map((row) => row[column]?.length ?? 0)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  const plural = (count: number, word: string): string => `${String(count)} ${word}${count === 1 ? '' : 's'}`;
  lines.push(`${plural(result.errors, 'error')}, ${plural(result.warnings, 'warning')}`);
  return `${lines.join('\n')}\n`;
}

/** By file, then line, then column (numerically), then tool and rule. */
function compareFindings(left: LintFinding, right: LintFinding): number {
  const [leftFile, leftLine, leftColumn] = splitLocation(left.location);
  const [rightFile, rightLine, rightColumn] = splitLocation(right.location);
  return (
    leftFile.localeCompare(rightFile) ||
    leftLine - rightLine ||
    leftColumn - rightColumn ||
    left.tool.localeCompare(right.tool) ||
    left.rule.localeCompare(right.rule)
  );
}

function splitLocation(location: string): [string, number, number] {
  const match = /^(.*):(\d+):(\d+)$/.exec(location);
  return match === null ? [location, 0, 0] : [match[1] ?? '', Number(match[2]), Number(match[3])];
}
