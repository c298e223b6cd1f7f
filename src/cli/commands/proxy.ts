/**
 * `boardkit proxy`: the validation proxy (src/mock/proxy.ts) in front of an implementation, as a CI gate.
 * It runs until Ctrl-C or SIGTERM, `--duration` seconds, or the upstream's end (`--upstream-gone-after`
 * failed attempts in a row once it had answered), then writes its report into `--report-dir` and exits
 * 1 when the traffic had a violation `--fail-on` counts, 0 when it had none, and 2 when it could not run
 * (a usage error, a busy port, an upstream that never answered).
 * @module
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseFailOn, type ViolationKind } from '../../mock/proxy/findings.js';
import { exitCodes } from '../exit-codes.js';
import { runUntilStopped } from '../serving.js';

interface ProxyOptions {
  upstream: string;
  port: number;
  host: string;
  errors?: boolean;
  reportDir?: string;
  duration?: number;
  failOn: ViolationKind[];
  upstreamGoneAfter?: number;
}

function wholeNumber(what: string, min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value) || number < min || number > max) {
      throw new InvalidArgumentError(`expected ${what} from ${min} to ${max}`);
    }
    return number;
  };
}

function failOnKinds(value: string): ViolationKind[] {
  try {
    return parseFailOn(value);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}

/** What the traffic must not break, and where the report goes: printed before the first request. */
function howTo(baseUrl: string, upstream: string, options: ProxyOptions, goneAfter: number): string {
  const stops = [
    'Ctrl-C or SIGTERM',
    ...(options.duration === undefined ? [] : [`${options.duration} s`]),
    ...(goneAfter === 0 ? [] : [`the upstream refusing ${goneAfter} attempts in a row`]),
  ];
  return [
    `Validation proxy listening on ${baseUrl}, forwarding to ${upstream}.`,
    'Send your requests to the proxy. Each contract violation is logged as "Violation: …" and listed in the',
    "response header sl-violations (an event stream's own violations only in the log and the report).",
    `It fails on ${options.failOn.join(', ') || 'no'} violations and stops on ${stops.join(', or ')}${options.reportDir === undefined ? '.' : `, then writes its report into ${options.reportDir}.`}`,
    '',
  ].join('\n');
}

export function proxyCommand(): Command {
  return new Command('proxy')
    .description(
      'relay the traffic to an implementation and check it against the contract, event streams included; a CI gate with --report-dir',
    )
    .requiredOption('--upstream <url>', "the implementation's base URL, its {base_url} (e.g. http://127.0.0.1:8080)")
    .option('--port <port>', 'port to listen on (0: a free one, printed)', wholeNumber('a port', 0, 65_535), 4011)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--report-dir <dir>', 'on stop, write report.json, junit.xml and report.html into this folder')
    .option('--duration <seconds>', 'stop after this many seconds', wholeNumber('a number of seconds', 1, 31_536_000))
    .addOption(
      new Option(
        '--fail-on <kinds>',
        'violations that fail the run (exit 1): request, response, stream (comma-separated), all, or none',
      )
        .argParser(failOnKinds)
        .default(parseFailOn('all'), 'all'),
    )
    .option(
      '--upstream-gone-after <attempts>',
      'stop once the upstream, after answering, refused this many attempts in a row (probed every second); 0 never (default: 3 with --report-dir, else 0)',
      wholeNumber('a count', 0, 1_000_000),
    )
    .option(
      '--errors',
      'answer invalid requests with a problem instead of forwarding them, and invalid JSON answers with a 500 problem',
    )
    .addHelpText(
      'after',
      [
        '',
        'Exit codes: 0 no violation counted by --fail-on, 1 at least one, 2 could not run (a usage error, a busy port,',
        'a report folder that cannot be written, an upstream that never answered).',
        '',
        'In CI:',
        '  boardkit proxy --upstream http://127.0.0.1:8080 --port 4011 --report-dir proxy-report --fail-on response,stream &',
        '  (run your end-to-end tests against http://127.0.0.1:4011, then stop your server)',
        '  wait $!    # the proxy stops 3 s after the server, writes its report and exits 0 or 1',
      ].join('\n'),
    )
    .action(async (options: ProxyOptions) => {
      const { parseUpstream, startProxy } = await import('../../mock/proxy.js');
      const { verdictLine } = await import('../../mock/proxy/report.js');
      const { writeReports } = await import('../../mock/proxy/report-files.js');
      const upstream = parseUpstream(options.upstream);
      const reportDir = options.reportDir === undefined ? undefined : resolve(options.reportDir);
      if (reportDir !== undefined) {
        // Found out now, not after the run: a folder that cannot be made is a usage error.
        await mkdir(reportDir, { recursive: true });
      }
      const goneAfter = options.upstreamGoneAfter ?? (reportDir === undefined ? 0 : 3);
      const proxy = await startProxy({
        upstream,
        host: options.host,
        port: options.port,
        errors: options.errors === true,
        output: 'inherit',
        failOn: options.failOn,
        upstreamGoneAfter: goneAfter,
      });
      process.stdout.write(howTo(proxy.baseUrl, upstream, options, goneAfter));
      let reason: 'duration' | 'upstream-gone' = 'duration';
      let timer: NodeJS.Timeout | undefined;
      const timeUp = new Promise<void>((done) => {
        if (options.duration !== undefined) {
          timer = setTimeout(done, options.duration * 1000);
        }
      });
      const ended = Promise.race([
        timeUp,
        proxy.upstreamGone.then(() => {
          reason = 'upstream-gone';
        }),
      ]).then(() => 0);
      const bySignal = await runUntilStopped({ exited: ended, stop: async () => undefined });
      clearTimeout(timer);
      const report = await proxy.stop(bySignal ? 'signal' : reason);
      if (reportDir !== undefined) {
        const files = await writeReports(report, reportDir);
        process.stdout.write(`Reports: ${files.join(', ')}\n`);
      }
      process.stdout.write(`${verdictLine(report)}\n`);
      process.exitCode = [exitCodes.ok, exitCodes.failed, exitCodes.couldNotRun][report.exitCode];
    });
}
