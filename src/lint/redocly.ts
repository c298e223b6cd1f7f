/**
 * Redocly CLI's `lint` over the contract (`recommended` plus the RFC 7807 problem-details rule, configured
 * in `redocly.yaml`), read from its JSON report.
 * @module
 */
import { relative, resolve } from 'node:path';
import type { LintFinding } from './finding.js';
import { packageBin, runNode, withoutBanner } from './process.js';

interface RedoclyLocation {
  source?: { ref?: string };
  pointer?: string;
  start?: { line: number; col: number };
}

interface RedoclyProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location?: RedoclyLocation[];
}

export interface RedoclyOptions {
  /** Working directory of the run; locations are relative to it. */
  cwd: string;
  /** The contract's root file. */
  root: string;
  /** The Redocly configuration file (`redocly.yaml`). */
  config: string;
}

export async function runRedocly({ cwd, root, config }: RedoclyOptions): Promise<LintFinding[]> {
  const args = ['lint', relative(cwd, root), '--format=json', `--config=${relative(cwd, config)}`];
  // The kit works offline and sends nothing anywhere (toolchain notes §3.1).
  const output = await runNode(packageBin('@redocly/cli', 'redocly'), args, cwd, { REDOCLY_TELEMETRY: 'off' });
  let report: { problems?: RedoclyProblem[] };
  try {
    report = JSON.parse(output.stdout) as { problems?: RedoclyProblem[] };
  } catch {
    throw new Error(`redocly lint failed (exit ${String(output.code)}):\n${withoutBanner(output.stderr)}`);
  }
  return (report.problems ?? []).map((problem) => ({
    tool: 'redocly',
    rule: problem.ruleId,
    severity: problem.severity === 'error' ? 'error' : 'warning',
    message: problem.message,
    location: locationOf(problem.location?.[0], cwd, root),
  }));
}

function locationOf(location: RedoclyLocation | undefined, cwd: string, root: string): string {
  const file = relative(cwd, resolve(cwd, location?.source?.ref ?? root));
  const start = location?.start ?? { line: 1, col: 1 };
  return `${file}:${start.line}:${start.col}`;
}
