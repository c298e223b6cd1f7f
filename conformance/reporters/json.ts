/**
 * report.json: the run result as is (harness/results.ts), for machines and for the HTML report.
 * @module
 */
import type { RunResult } from '../harness/results.js';

export function renderJson(result: RunResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
