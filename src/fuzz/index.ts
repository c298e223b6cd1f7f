/**
 * `boardkit fuzz`: generated tests of a running implementation against the bundled contract, with
 * Schemathesis (all checks, all phases; conformance/schemathesis/). Writes the JUnit report, the JSON run
 * report, the console log and a readable `summary.md` into the report directory.
 * @module
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseJunit, type JunitTestCase } from './junit.js';
import { locateSchemathesis, type LocateOptions } from './locate.js';
import { reportFiles, runSchemathesis, type SchemathesisRun } from './schemathesis.js';
import { renderSummary, type RunReport } from './summary.js';

export { defaultConfigFile, hooksFile, reportFiles, schemathesisArguments, waitBounds } from './schemathesis.js';
export { progressPrinter, readCallRecords, type CallRecord } from './progress.js';
export { userCacheDir } from './cache-dir.js';
export {
  locateSchemathesis,
  projectSchemathesis,
  type LocatedSchemathesis,
  type SchemathesisSource,
} from './locate.js';
export { managedVenvDir } from './managed-venv.js';
export { pinnedSchemathesis } from './python.js';
export { parseJunit, type JunitFinding, type JunitTestCase } from './junit.js';
export { outcomeLines, renderSummary, type RunReport } from './summary.js';

export interface FuzzOptions extends Omit<SchemathesisRun, 'reportDir'> {
  /** Where the reports go; created if missing. */
  reportDir: string;
  /** How to find Schemathesis (`--schemathesis`, the managed environment's folder, progress lines). */
  locate?: LocateOptions;
}

export interface FuzzResult {
  /** 0 the run passed, 1 it found failures, 2 it could not run (`verdict`). */
  exitCode: number;
  reportDir: string;
  summaryPath: string;
  report: RunReport | undefined;
  testCases: JunitTestCase[];
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Schemathesis seeds are 128-bit integers: read the seed as its digits, which JSON numbers cannot hold. */
export function parseRunReport(text: string): RunReport {
  return JSON.parse(text.replace(/"seed":\s*(\d+)/, '"seed": "$1"')) as RunReport;
}

/**
 * The command's exit code, by the kit's rule: `1` when the run found failures (the target broke the
 * contract), `0` when Schemathesis passed with no failure and no error, and `2`, could not run, for
 * everything else: no report (the contract or the target could not be reached), errors without failures
 * (requests that could not be made or judged), a run that stopped because the server went away, or a
 * warning the configuration fails on (a key refused everywhere, a contract not fully read).
 */
export function verdict(schemathesisExit: number, report: RunReport | undefined): number {
  if (report !== undefined && report.failures.length > 0) {
    return 1;
  }
  if (
    schemathesisExit === 0 &&
    report !== undefined &&
    report.errors.length === 0 &&
    report.stop_reason !== 'server_unavailable'
  ) {
    return 0;
  }
  return 2;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const { executable } = await locateSchemathesis(options.locate);
  const reportDir = resolve(options.reportDir);
  await mkdir(reportDir, { recursive: true });
  // Reports of an earlier run must not pass for this one's.
  await Promise.all(Object.values(reportFiles).map((file) => rm(join(reportDir, file), { force: true })));

  const schemathesisExit = await runSchemathesis(executable, { ...options, reportDir });
  const reportText = await readOptional(join(reportDir, reportFiles.json));
  const report = reportText === undefined ? undefined : parseRunReport(reportText);
  const testCases = parseJunit((await readOptional(join(reportDir, reportFiles.junit))) ?? '');
  const exitCode = verdict(schemathesisExit, report);

  const summaryPath = join(reportDir, reportFiles.summary);
  await writeFile(
    summaryPath,
    renderSummary({
      target: options.target,
      maxExamples: options.maxExamples,
      maxTime: options.maxTime,
      exitCode,
      report,
      testCases,
    }),
  );
  return { exitCode, reportDir, summaryPath, report, testCases };
}
