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

export { defaultConfigFile, reportFiles, schemathesisArguments } from './schemathesis.js';
export { userCacheDir } from './cache-dir.js';
export { locateSchemathesis, projectSchemathesis, type LocatedSchemathesis, type SchemathesisSource } from './locate.js';
export { managedVenvDir } from './managed-venv.js';
export { pinnedSchemathesis } from './python.js';
export { parseJunit, type JunitFinding, type JunitTestCase } from './junit.js';
export { renderSummary, type RunReport } from './summary.js';

export interface FuzzOptions extends Omit<SchemathesisRun, 'reportDir'> {
  /** Where the reports go; created if missing. */
  reportDir: string;
  /** How to find Schemathesis (`--schemathesis`, the managed environment's folder, progress lines). */
  locate?: LocateOptions;
}

export interface FuzzResult {
  /** 0 when the run passed; nonzero on any failure or error. */
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
 * A run passes only when Schemathesis exits 0 and its own report counts no failure and no error; a run
 * that left no report (a schema or connection error before testing) fails as well.
 */
export function verdict(schemathesisExit: number, report: RunReport | undefined): number {
  if (schemathesisExit !== 0) {
    return schemathesisExit;
  }
  if (report === undefined || report.failures.length > 0 || report.errors.length > 0) {
    return 1;
  }
  return 0;
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
    renderSummary({ target: options.target, maxExamples: options.maxExamples, exitCode, report, testCases }),
  );
  return { exitCode, reportDir, summaryPath, report, testCases };
}
