/**
 * Schemathesis as a child process: the executable `locate.ts` chose (the pinned version of
 * conformance/schemathesis/requirements.txt, unless the user named another), never installed globally.
 * @module
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { bundledJson, packageRoot } from '../contract/paths.js';

/** The configuration every run uses unless told otherwise: all checks, all phases. */
export const defaultConfigFile = join(packageRoot, 'conformance', 'schemathesis', 'schemathesis.toml');

/** Where the reports of one run land, by name, inside its report directory. */
export const reportFiles = {
  junit: 'junit.xml',
  json: 'report.json',
  log: 'schemathesis.log',
  summary: 'summary.md',
} as const;

export interface SchemathesisRun {
  /** The API base URL, e.g. `http://127.0.0.1:8080`. */
  target: string;
  apiKey: string;
  /** Test cases per operation and phase (`--max-examples`). */
  maxExamples: number;
  /** Absolute path of the report directory; also the working directory of the run. */
  reportDir: string;
  configFile?: string;
  /** A seed reproduces an earlier run; without one Schemathesis draws one and reports it. */
  seed?: string;
  /** Only these phases, for runs that choose a smaller budget (the configuration still decides the checks). */
  phases?: readonly string[];
  /** Receives the console output as it arrives (the command passes its own stdout). */
  onOutput?: (chunk: string) => void;
}

/** The command line of a run; the API key is not on it (it travels in the environment). */
export function schemathesisArguments(run: SchemathesisRun): string[] {
  const args = [
    '--config-file',
    run.configFile ?? defaultConfigFile,
    'run',
    bundledJson,
    '--url',
    run.target,
    '--max-examples',
    String(run.maxExamples),
    '--report-dir',
    run.reportDir,
    '--report-junit-path',
    join(run.reportDir, reportFiles.junit),
    '--report-json-path',
    join(run.reportDir, reportFiles.json),
    '--no-color',
  ];
  if (run.seed !== undefined) {
    args.push('--seed', run.seed);
  }
  if (run.phases !== undefined && run.phases.length > 0) {
    args.push('--phases', run.phases.join(','));
  }
  return args;
}

/**
 * Runs Schemathesis and resolves with its exit code (0 passed, 1 failures, other values errors). The
 * console output goes to `onOutput` and to `schemathesis.log` in the report directory. The run's working
 * directory is the report directory, so the example database and crash cache Schemathesis keeps there
 * replay earlier failures first on the next run, and nothing is written to the working tree.
 */
export function runSchemathesis(executable: string, run: SchemathesisRun): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const log = createWriteStream(join(run.reportDir, reportFiles.log));
    const child = spawn(executable, schemathesisArguments(run), {
      cwd: run.reportDir,
      env: { ...process.env, BOARDKIT_API_KEY: run.apiKey, NO_COLOR: '1', PYTHONIOENCODING: 'utf-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const forward = (chunk: string) => {
      log.write(chunk);
      run.onOutput?.(chunk);
    };
    child.stdout.setEncoding('utf8').on('data', forward);
    child.stderr.setEncoding('utf8').on('data', forward);
    child.on('error', (error) => {
      log.end();
      reject(error);
    });
    child.on('close', (code, signal) => {
      log.end(() => resolvePromise(code ?? (signal === null ? 1 : 128)));
    });
  });
}
