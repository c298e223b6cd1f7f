/**
 * Spectral CLI's `lint` over the contract with the house ruleset (`openapi/lint/ruleset.yaml`:
 * `spectral:oas` plus the rules of openapi/README.md "Conventions"), read from its JSON report.
 * The run uses `openapi/lint/resolver.cjs`, Spectral's own `$ref` resolver with a fix that makes it resolve
 * every reference of a split contract (the file explains the defect).
 * @module
 */
import { relative } from 'node:path';
import type { LintFinding } from './finding.js';
import { packageBin, runNode } from './process.js';

interface SpectralResult {
  code: string | number;
  message: string;
  /** 0 error, 1 warning, 2 information, 3 hint. */
  severity: number;
  source?: string;
  range?: { start: { line: number; character: number } };
}

export interface SpectralOptions {
  /** Working directory of the run; locations are relative to it. */
  cwd: string;
  /** The contract's root file. */
  root: string;
  /** The Spectral ruleset file. */
  ruleset: string;
  /** The `$ref` resolver module. */
  resolver: string;
}

export async function runSpectral({ cwd, root, ruleset, resolver }: SpectralOptions): Promise<LintFinding[]> {
  const args = [
    'lint',
    relative(cwd, root),
    '--format',
    'json',
    '-r',
    relative(cwd, ruleset),
    '--resolver',
    relative(cwd, resolver),
    // Without it Spectral appends "No results with a severity of 'error' found!" to the JSON.
    '--quiet',
  ];
  const output = await runNode(packageBin('@stoplight/spectral-cli', 'spectral'), args, cwd);
  let results: SpectralResult[];
  try {
    results = JSON.parse(output.stdout) as SpectralResult[];
  } catch {
    throw new Error(
      `spectral lint failed (exit ${String(output.code)}):\n${output.stderr.trim() || output.stdout.trim()}`,
    );
  }
  return results.map((result) => ({
    tool: 'spectral',
    rule: String(result.code),
    // Information and hints count as warnings: the bar is zero of either, so nothing may pass unseen.
    severity: result.severity === 0 ? 'error' : 'warning',
    message: result.message,
    location: locationOf(result, cwd, root),
  }));
}

function locationOf(result: SpectralResult, cwd: string, root: string): string {
  const file = relative(cwd, result.source ?? root);
  const start = result.range?.start ?? { line: 0, character: 0 };
  return `${file}:${start.line + 1}:${start.character + 1}`;
}
