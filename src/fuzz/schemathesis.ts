/**
 * Schemathesis as a child process: the executable `locate.ts` chose (the pinned version of
 * conformance/schemathesis/requirements.txt, unless the user named another), never installed globally.
 * @module
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { bundledJson, packageRoot } from '../contract/paths.js';
import { readCallRecords, type CallRecord } from './progress.js';

/** The configuration every run uses unless told otherwise: all checks, all phases. */
export const defaultConfigFile = join(packageRoot, 'conformance', 'schemathesis', 'schemathesis.toml');

/** The hooks every run loads, whatever the configuration: bounded waits and progress (docs/fuzzing.md). */
export const hooksFile = join(packageRoot, 'conformance', 'schemathesis', 'hooks.py');

/**
 * How long a generated request may keep the run waiting (docs/fuzzing.md › Waits, progress and time). A long poll's
 * `wait_ms` above `waitMs` is sent as `waitMs` (a value the contract allows, up to its 60000), and an event
 * stream read without `finite=true` is cut after `streamSeconds`; the checks judge what was read.
 */
export const waitBounds = { waitMs: 1000, streamSeconds: 2 } as const;

/**
 * A run that outlives its `--max-time` by this much is stopped: Schemathesis ends at the budget between
 * two requests, so only a request the target never answers can hold it longer (the configuration's
 * `request-timeout`, 20 s).
 */
const budgetGraceSeconds = 30;

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
  /** The run's time budget in seconds (`--max-time`): the run ends within it, with its reports. */
  maxTime?: number;
  /** Receives the console output as it arrives (the command passes its own stdout). */
  onOutput?: (chunk: string) => void;
  /** Receives each request the run made, as it is answered (the command prints progress from them). */
  onCall?: (call: CallRecord) => void;
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
  if (run.maxTime !== undefined) {
    args.push('--max-time', String(run.maxTime));
  }
  return args;
}

/** The file descriptor of the child on which the hooks write one JSON line per request. */
const progressFd = 3;

/** The hooks' settings; the key travels here too, never on the command line. */
function childEnvironment(run: SchemathesisRun): NodeJS.ProcessEnv {
  return {
    ...process.env,
    BOARDKIT_API_KEY: run.apiKey,
    SCHEMATHESIS_HOOKS: hooksFile,
    BOARDKIT_FUZZ_MAX_WAIT_MS: String(waitBounds.waitMs),
    BOARDKIT_FUZZ_STREAM_SECONDS: String(waitBounds.streamSeconds),
    BOARDKIT_FUZZ_PROGRESS_FD: String(progressFd),
    NO_COLOR: '1',
    PYTHONIOENCODING: 'utf-8',
  };
}

/**
 * Runs Schemathesis and resolves with its exit code (0 passed, 1 failures, other values errors). The
 * console output goes to `onOutput` and to `schemathesis.log` in the report directory. The run's working
 * directory is the report directory, so the example database and crash cache Schemathesis keeps there
 * replay earlier failures first on the next run, and nothing is written to the working tree. With a time
 * budget, a run still going well past it is interrupted (it then writes its reports) and, if that does
 * not end it, killed.
 */
export function runSchemathesis(executable: string, run: SchemathesisRun): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const log = createWriteStream(join(run.reportDir, reportFiles.log));
    const child = spawn(executable, schemathesisArguments(run), {
      cwd: run.reportDir,
      env: childEnvironment(run),
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const [, stdout, stderr, progress] = child.stdio as unknown as [null, Readable, Readable, Readable];
    readCallRecords(progress, (call) => run.onCall?.(call));
    const overrun =
      run.maxTime === undefined
        ? undefined
        : setTimeout(
            () => {
              child.kill('SIGINT');
              setTimeout(() => child.kill('SIGKILL'), budgetGraceSeconds * 1000).unref();
            },
            (run.maxTime + budgetGraceSeconds) * 1000,
          );
    const forward = (chunk: string) => {
      log.write(chunk);
      run.onOutput?.(chunk);
    };
    stdout.setEncoding('utf8').on('data', forward);
    stderr.setEncoding('utf8').on('data', forward);
    child.on('error', (error) => {
      clearTimeout(overrun);
      log.end();
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(overrun);
      log.end(() => resolvePromise(code ?? (signal === null ? 1 : 128)));
    });
  });
}
