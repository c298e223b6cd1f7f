/**
 * `boardkit webhooks check-receiver`: the receiver suite (src/webhook-tools/check-receiver.ts) against a
 * receiver, with report.json, junit.xml and report.html; `--envelope` and `--previous-secret` say what the
 * receiver expects. Exit code 0 when no MUST requirement failed, 1
 * when one did, 2 when the suite could not run.
 * @module
 */
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { couldNotRun, requireTarget } from '../webhook-exit.js';

interface CheckReceiverOptions {
  url?: string;
  secret?: string;
  reportDir: string;
  handledUrl?: string;
  previousSecret?: string;
  envelope: 'seed' | 'published' | 'both';
  allowRemote: boolean;
}

export function webhooksCheckReceiverCommand(): Command {
  return new Command('check-receiver')
    .description(
      "test a webhook receiver against the seed's verification rules and the ways deliveries arrive (out of order, retried, timed, in each envelope, during a move to a new secret); exits 0 conformant, 1 a MUST failed, 2 cannot run, 3 a MUST could not be checked",
    )
    .option('--url <url>', 'the receiver (required; loopback only unless --allow-remote)')
    .option('--secret <secret>', 'the signing secret the receiver verifies with')
    .option('--report-dir <dir>', 'where to write report.json, junit.xml and report.html', 'reports/receiver')
    .option(
      '--handled-url <url>',
      'where the receiver lists the delivery ids it handled (JSON array, or object of counts)',
    )
    .option(
      '--previous-secret <secret>',
      'the secret being replaced, while the receiver accepts both (checks RECV-014; skipped without)',
    )
    .addOption(
      new Option('--envelope <form>', "the envelope the receiver expects (its subscriptions' `envelope`)")
        .choices(['seed', 'published', 'both'])
        .default('both'),
    )
    .option('--allow-remote', 'check a receiver that is not on a loopback address (its clock must be in sync)', false)
    .action(async (options: CheckReceiverOptions) => {
      try {
        const { url, secret } = requireTarget(options);
        const { checkReceiver } = await import('../../webhook-tools/check-receiver.js');
        const { loadContract } = await import('../../contract/load.js');
        const reporters = await import('../../../conformance/reporters/index.js');
        const { renderSummary } = await import('../../../conformance/reporters/console.js');
        const result = await checkReceiver(loadContract(), {
          url,
          secret,
          allowRemote: options.allowRemote,
          envelope: options.envelope,
          ...(options.previousSecret === undefined ? {} : { previousSecret: options.previousSecret }),
          ...(options.handledUrl === undefined ? {} : { handledUrl: options.handledUrl }),
          onProgress: (line) => process.stderr.write(`${line}\n`),
        });
        const files = await reporters.writeReports(result, resolve(options.reportDir));
        process.stdout.write(renderSummary(result));
        process.stdout.write(`Reports: ${files.join(', ')}\n`);
        process.exitCode = result.exitCode;
      } catch (error) {
        couldNotRun('check-receiver', error);
      }
    });
}
