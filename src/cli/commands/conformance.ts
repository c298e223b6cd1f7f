/**
 * `boardkit conformance`: runs the conformance suite against a deployment of the API and writes
 * report.json, junit.xml and report.html. Exit code 0 conformant (every selected MUST ran and passed),
 * 1 not conformant (a MUST failed), 2 the suite could not run (bad options, unreachable or wrong target,
 * rejected key), 3 incomplete (no MUST failed, some could not be checked; 0 with `--allow-incomplete`).
 * The process exits once the reports are written, whatever the target still holds open.
 * @module
 */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { waysIn, type WaysInOptions, waysInOptions } from './conformance-ways-in.js';

interface ConformanceOptions extends WaysInOptions {
  target?: string;
  apiKey?: string;
  apiKeyB?: string;
  tierKey?: string[];
  lowCreditKey?: string;
  sharePage?: string;
  receiverHost?: string;
  reportDir: string;
  only?: string[];
  profile?: string;
  concurrency: string;
  sessionTimeout: string;
  requestTimeout: string;
  timeout: string;
  allowIncomplete: boolean;
}

const exitCouldNotRun = 2;

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Seconds from an option, or `undefined` when it is not a positive number. */
function seconds(value: string): number | undefined {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed * 1000 : undefined;
}

/** Ends the process once its output is flushed: a target's open stream or socket must not keep it alive. */
function exitWith(code: number): void {
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

function couldNotRun(message: string): void {
  process.stderr.write(`boardkit conformance: ${message}\n`);
  exitWith(exitCouldNotRun);
}

export function conformanceCommand(): Command {
  return (
    new Command('conformance')
      .description(
        'run the conformance suite against a deployment; exits 0 conformant, 1 not conformant (a MUST failed), 2 could not run, 3 incomplete (MUST requirements not checked)',
      )
      .option('--target <base_url>', "the deployment's {base_url} (versioned paths are {base_url}/v1/...)")
      .option('--api-key <key>', 'an API key of the workspace under test (default: $BOARDKIT_API_KEY)')
      .option(
        '--api-key-b <key>',
        'a key of another workspace, for the isolation checks (default: $BOARDKIT_API_KEY_B)',
      )
      .option(
        '--tier-key <tier=key>',
        'a key of a workspace on another tier (pro=sk_...), for the tier checks of a target without test control; repeatable',
        collect,
      )
      .option(
        '--low-credit-key <key>',
        'a key of a workspace whose balance covers no session, for the insufficient-credit check of a target without test control',
      )
      .option(
        '--share-page <template>',
        "where the target's share page opens a link, relative to the base URL, {token} for the link's last segment (default: the link's own URL)",
      )
      .option(
        '--receiver-host <host>',
        "an address of this machine the target can deliver webhooks to (the suite's receiver binds it; default 127.0.0.1)",
      )
      .option(...waysInOptions.receiverPort)
      .option(...waysInOptions.rotatedKey)
      .option(...waysInOptions.expiredKey)
      .option(...waysInOptions.legacyWebhookKey)
      .option(...waysInOptions.legacyWebhookSecret)
      .option(...waysInOptions.realTimeBudget)
      .option('--report-dir <dir>', 'where to write report.json, junit.xml and report.html', 'reports/conformance')
      .option(
        '--only <ids>',
        'requirement IDs, ID prefixes or categories, comma-separated or repeated (e.g. IDEM-003,webhooks)',
        collect,
      )
      .option('--profile <name>', 'default, full (with rate limits), reference, or a profile .json file')
      .option('--concurrency <n>', 'checks run at once in the main phase', '6')
      .option('--session-timeout <seconds>', 'real time a session may take to finish', '120')
      .option('--request-timeout <seconds>', 'real time one request may take', '30')
      .option(
        '--timeout <seconds>',
        'real time the whole run may take; then the reports are written with what was checked',
        '1800',
      )
      .option('--allow-incomplete', 'exit 0 instead of 3 when no MUST failed but some could not be checked', false)
      // A usage error is "could not run" (2), as for every other reason the suite cannot start; help stays 0.
      .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : exitCouldNotRun))
      .action(async (options: ConformanceOptions) => {
        const apiKey = options.apiKey ?? process.env['BOARDKIT_API_KEY'];
        const apiKeyB = options.apiKeyB ?? process.env['BOARDKIT_API_KEY_B'];
        if (options.target === undefined || apiKey === undefined || apiKey === '') {
          return couldNotRun('--target and --api-key (or $BOARDKIT_API_KEY) are required');
        }
        const pairs = (options.tierKey ?? []).map((pair) => /^([a-z]+)=(\S+)$/.exec(pair));
        if (pairs.some((pair) => pair === null)) {
          return couldNotRun('--tier-key takes TIER=KEY, e.g. pro=sk_test_...');
        }
        const [sessionTimeoutMs, requestTimeoutMs, runTimeoutMs] = [
          options.sessionTimeout,
          options.requestTimeout,
          options.timeout,
        ].map(seconds);
        if (sessionTimeoutMs === undefined || requestTimeoutMs === undefined || runTimeoutMs === undefined) {
          return couldNotRun('--session-timeout, --request-timeout and --timeout take a positive number of seconds');
        }
        const given = waysIn(options);
        if (typeof given === 'string') {
          return couldNotRun(given);
        }
        const tierKeys: Record<string, string> = Object.fromEntries(pairs.map((pair) => [pair![1]!, pair![2]!]));
        // Loaded on use: the suite compiles the contract's schemas, which `--help` should not wait for.
        const suite = await import('../../../conformance/index.js');
        try {
          new URL(options.target);
          const profile = suite.loadProfile(options.profile);
          const result = await suite.runConformance({
            target: options.target,
            apiKey,
            ...(apiKeyB === undefined || apiKeyB === '' ? {} : { apiKeyB }),
            ...(options.only === undefined ? {} : { only: options.only }),
            profile: {
              ...profile,
              ...(options.tierKey === undefined ? {} : { tierKeys }),
              ...(options.lowCreditKey === undefined ? {} : { lowCreditKey: options.lowCreditKey }),
              ...(options.sharePage === undefined ? {} : { sharePage: options.sharePage }),
              ...given.profile,
            },
            ...(given.receiverPort === undefined ? {} : { receiverPort: given.receiverPort }),
            ...(given.realTimeBudgetMs === undefined ? {} : { realTimeBudgetMs: given.realTimeBudgetMs }),
            ...(options.receiverHost === undefined ? {} : { receiverHost: options.receiverHost }),
            concurrency: Math.max(1, Number(options.concurrency) || 1),
            sessionTimeoutMs,
            requestTimeoutMs,
            runTimeoutMs,
            allowIncomplete: options.allowIncomplete,
            onProgress: (event) => {
              const line = suite.progressLine(event);
              if (line !== undefined) {
                process.stderr.write(`${line}\n`);
              }
            },
          });
          const files = await suite.writeReports(result, resolve(options.reportDir));
          process.stdout.write(`Reports: ${files.join(', ')}\n`);
          process.stdout.write(suite.renderSummary(result));
          exitWith(result.exitCode);
        } catch (error) {
          couldNotRun(`the suite could not run: ${error instanceof Error ? error.message : String(error)}`);
        }
      })
  );
}
