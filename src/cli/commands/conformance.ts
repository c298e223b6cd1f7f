/**
 * `boardkit conformance`: runs the conformance suite against a deployment of the API and writes
 * report.json, junit.xml and report.html. Exit code 0 when no MUST requirement failed, 1 when one did,
 * 2 when the suite could not run (bad options, unreachable target, rejected key).
 * @module
 */
import { resolve } from 'node:path';
import { Command } from 'commander';

interface ConformanceOptions {
  target?: string;
  apiKey?: string;
  apiKeyB?: string;
  tierKey?: string[];
  reportDir: string;
  only?: string[];
  profile?: string;
  concurrency: string;
  sessionTimeout: string;
}

const exitCouldNotRun = 2;

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function conformanceCommand(): Command {
  return new Command('conformance')
    .description('run the conformance suite against a deployment; exits 0 when no MUST fails, 1 when one does, 2 when it cannot run')
    .option('--target <base_url>', "the deployment's {base_url} (versioned paths are {base_url}/v1/...)")
    .option('--api-key <key>', 'an API key of the workspace under test (default: $BOARDKIT_API_KEY)')
    .option('--api-key-b <key>', 'a key of another workspace, for the isolation checks (default: $BOARDKIT_API_KEY_B)')
    .option('--tier-key <tier=key>', 'a key of a workspace on another tier (pro=sk_...), for the tier checks of a target without test control; repeatable', collect)
    .option('--report-dir <dir>', 'where to write report.json, junit.xml and report.html', 'reports/conformance')
    .option('--only <ids>', 'requirement IDs, ID prefixes or categories, comma-separated or repeated (e.g. IDEM-003,webhooks)', collect)
    .option('--profile <name>', 'default, full (with rate limits), reference, or a profile .json file')
    .option('--concurrency <n>', 'checks run at once in the main phase', '6')
    .option('--session-timeout <seconds>', 'real time a session may take to finish', '120')
    .action(async (options: ConformanceOptions) => {
      const apiKey = options.apiKey ?? process.env['BOARDKIT_API_KEY'];
      const apiKeyB = options.apiKeyB ?? process.env['BOARDKIT_API_KEY_B'];
      if (options.target === undefined || apiKey === undefined || apiKey === '') {
        process.stderr.write('boardkit conformance: --target and --api-key (or $BOARDKIT_API_KEY) are required\n');
        process.exitCode = exitCouldNotRun;
        return;
      }
      const pairs = (options.tierKey ?? []).map((pair) => /^([a-z]+)=(\S+)$/.exec(pair));
      if (pairs.some((pair) => pair === null)) {
        process.stderr.write('boardkit conformance: --tier-key takes TIER=KEY, e.g. pro=sk_test_...\n');
        process.exitCode = exitCouldNotRun;
        return;
      }
      const tierKeys: Record<string, string> = Object.fromEntries(pairs.map((pair) => [pair![1]!, pair![2]!]));
      // Loaded on use: the suite compiles the contract's schemas, which `--help` should not wait for.
      const suite = await import('../../../conformance/index.js');
      try {
        new URL(options.target);
        const result = await suite.runConformance({
          target: options.target,
          apiKey,
          ...(apiKeyB === undefined || apiKeyB === '' ? {} : { apiKeyB }),
          ...(options.only === undefined ? {} : { only: options.only }),
          profile: { ...suite.loadProfile(options.profile), ...(options.tierKey === undefined ? {} : { tierKeys }) },
          concurrency: Math.max(1, Number(options.concurrency) || 1),
          sessionTimeoutMs: Math.max(1, Number(options.sessionTimeout) || 120) * 1000,
          onProgress: (event) => {
            const line = suite.progressLine(event);
            if (line !== undefined) {
              process.stderr.write(`${line}\n`);
            }
          },
        });
        const files = await suite.writeReports(result, resolve(options.reportDir));
        process.stdout.write(suite.renderSummary(result));
        process.stdout.write(`Reports: ${files.join(', ')}\n`);
        process.exitCode = result.exitCode;
      } catch (error) {
        process.stderr.write(`boardkit conformance: the suite could not run: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = exitCouldNotRun;
      }
    });
}
