/**
 * What a run from code leaves behind: nothing unless asked. The reports are written only into the
 * `reportDir` given, and the console lines only when `print` is on.
 * @module
 */
import { resolve } from 'node:path';
import type { RunResult } from '../../conformance/index.js';

export interface ReportOptions {
  /** Write report.json, junit.xml and report.html here (nothing is written without it). */
  reportDir?: string;
  /** Print progress to stderr and the summary to stdout, as the command line does (off by default). */
  print?: boolean;
}

/** The run, with the report files it wrote (none without `reportDir`). */
export type RunReport = RunResult & { reportFiles: readonly string[] };

export async function finishRun(result: RunResult, options: ReportOptions): Promise<RunReport> {
  const suite = await import('../../conformance/index.js');
  const reportFiles =
    options.reportDir === undefined ? [] : await suite.writeReports(result, resolve(options.reportDir));
  if (options.print === true) {
    process.stdout.write(suite.renderSummary(result));
  }
  return { ...result, reportFiles };
}

/** Where progress lines go: stderr when printing, nowhere otherwise. */
export function progressSink(options: ReportOptions): ((line: string) => void) | undefined {
  return options.print === true ? (line) => process.stderr.write(`${line}\n`) : undefined;
}
