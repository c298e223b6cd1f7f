/**
 * `boardkit fuzz`: Schemathesis against a running implementation, every check and every phase
 * (src/fuzz, conformance/schemathesis/). Exits 0 when the target passed, 1 on any failure, 2 when the run
 * could not be made; the reports and `summary.md` land in the report directory. Progress goes to stderr
 * while the run goes, and a summary of what ran ends it. Schemathesis is found or installed on first use
 * (src/fuzz/locate.ts), so a package user needs no step but `npm install`.
 * @module
 */
import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';

interface FuzzCommandOptions {
  target: string;
  apiKey?: string;
  maxExamples: number;
  maxTime?: number;
  reportDir: string;
  config?: string;
  seed?: string;
  phases?: string[];
  schemathesis?: string;
}

const phaseNames = ['examples', 'coverage', 'fuzzing', 'stateful'];

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1) {
    throw new InvalidArgumentError('expected a positive integer');
  }
  return parsed;
}

/** Schemathesis seeds are 128-bit integers, so they stay decimal text. */
function seedDigits(value: string): string {
  if (!/^\d{1,40}$/.test(value)) {
    throw new InvalidArgumentError('expected the decimal seed an earlier run reported');
  }
  return value;
}

function phaseList(value: string): string[] {
  const phases = value.split(',').map((phase) => phase.trim());
  const unknown = phases.filter((phase) => !phaseNames.includes(phase));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(`unknown phase ${unknown.join(', ')}; phases are ${phaseNames.join(', ')}`);
  }
  return phases;
}

function baseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected an http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError('expected an http(s) URL');
  }
  return value.replace(/\/+$/, '');
}

/** Exit code 2, could not run: Schemathesis not found or not installable, no key, a report folder refused. */
function couldNotRun(message: string): void {
  process.stderr.write(`boardkit: ${message}\n`);
  process.exitCode = 2;
}

export function fuzzCommand(): Command {
  return new Command('fuzz')
    .description(
      'run Schemathesis (all checks, all phases) against a running implementation; exits 1 on any failure, 2 when it cannot run',
    )
    .requiredOption('--target <url>', 'the API base URL, e.g. http://127.0.0.1:8080', baseUrl)
    .option('--api-key <key>', 'the bearer key to test with (default: $BOARDKIT_API_KEY)')
    .option('--max-examples <n>', 'test cases per operation and phase', positiveInteger, 100)
    .option(
      '--max-time <seconds>',
      'time budget of the run; it ends within it, spending what the examples leave on new cases',
      positiveInteger,
    )
    .option('--report-dir <dir>', 'where the JUnit report and summary.md go', 'reports/fuzz')
    .option('--config <file>', 'Schemathesis configuration (default: conformance/schemathesis/schemathesis.toml)')
    .option('--seed <n>', 'reproduce an earlier run with its seed', seedDigits)
    .option('--phases <list>', `only these phases (${phaseNames.join(',')}); default: all`, phaseList)
    .option(
      '--schemathesis <path>',
      'the schemathesis executable to run (default: a pinned one the kit installs in your cache directory on first use)',
    )
    .action(async (options: FuzzCommandOptions) => {
      const apiKey = options.apiKey ?? process.env['BOARDKIT_API_KEY'];
      if (apiKey === undefined || apiKey === '') {
        couldNotRun('an API key is required: pass --api-key or set BOARDKIT_API_KEY');
        return;
      }
      // Loaded on use, like every command's implementation.
      const { outcomeLines, progressPrinter, runFuzz } = await import('../../fuzz/index.js');
      const printProgress = progressPrinter({ write: (line) => process.stderr.write(`boardkit fuzz ${line}\n`) });
      let result;
      try {
        result = await runFuzz({
          target: options.target,
          apiKey,
          maxExamples: options.maxExamples,
          reportDir: options.reportDir,
          ...(options.maxTime === undefined ? {} : { maxTime: options.maxTime }),
          ...(options.config === undefined ? {} : { configFile: resolve(options.config) }),
          ...(options.seed === undefined ? {} : { seed: options.seed }),
          ...(options.phases === undefined ? {} : { phases: options.phases }),
          locate: {
            ...(options.schemathesis === undefined ? {} : { explicit: options.schemathesis }),
            onProgress: (line) => process.stderr.write(`${line}\n`),
          },
          onOutput: (chunk) => process.stdout.write(chunk),
          onCall: printProgress,
        });
      } catch (error) {
        couldNotRun(error instanceof Error ? error.message : String(error));
        return;
      }
      const verdictWord = ['passed', 'FAILED', 'could not run'][result.exitCode] ?? 'could not run';
      const outcome = outcomeLines({
        ...options,
        exitCode: result.exitCode,
        report: result.report,
        testCases: result.testCases,
      });
      process.stdout.write(
        `\nboardkit fuzz: ${verdictWord} (exit ${result.exitCode})\n${outcome.map((line) => `  ${line}\n`).join('')}  See ${result.summaryPath}\n`,
      );
      process.exitCode = result.exitCode;
    });
}
