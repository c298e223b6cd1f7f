/**
 * `boardkit webhooks trigger <event>`: one signed delivery of an event of the contract (or `--all`: each
 * event once) to a receiver, printing what was sent and what the receiver answered. Exit code 0 when
 * every delivery was answered 2xx, 1 when one was not, 2 when nothing could be sent.
 * @module
 */
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { couldNotRun, requireTarget } from '../webhook-exit.js';

interface TriggerOptions {
  url?: string;
  secret?: string;
  envelope: 'seed' | 'published';
  legacy: boolean;
  data?: string;
  set?: string[];
  validate: boolean;
  all: boolean;
  allowRemote: boolean;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function webhooksTriggerCommand(): Command {
  return new Command('trigger')
    .description('send one signed delivery of an event (or every event, --all) to a receiver')
    .argument('[event]', 'an event of the contract, e.g. session.complete')
    .option('--url <url>', 'the receiver (required; loopback only unless --allow-remote)')
    .option('--secret <secret>', 'the signing secret the receiver verifies with (whsec_…; required)')
    .addOption(
      new Option('--envelope <form>', "the body's envelope: the seed's or the published form")
        .choices(['seed', 'published'])
        .default('seed'),
    )
    .option(
      '--legacy',
      'send the deprecated per-key form (X-Mcp-* headers, HMAC of the body alone; session.complete only)',
      false,
    )
    .option('--data <file>', "a JSON file with the event's data, instead of the contract's example")
    .option(
      '--set <path=value>',
      'change one field of the body, e.g. data.credits_charged=12 or data.items[0].title=Plan (a JSON value, else text; repeatable)',
      collect,
    )
    .option('--no-validate', 'send a body changed by --data or --set even when it breaks the event schema')
    .option('--all', 'send every event of every published event list, once each', false)
    .option('--allow-remote', 'deliver to a host that is not a loopback address', false)
    .action(async (event: string | undefined, options: TriggerOptions) => {
      try {
        const { url, secret } = requireTarget(options);
        const tools = await import('../../webhook-tools/index.js');
        const { loadContract } = await import('../../contract/load.js');
        const events = tools.eventsToTrigger(event, options.all);
        const data: unknown = options.data === undefined ? undefined : JSON.parse(readFileSync(options.data, 'utf8'));
        const results = await tools.triggerEvents(loadContract(), {
          url,
          secret,
          events,
          envelope: options.envelope,
          legacy: options.legacy,
          data,
          overrides: (options.set ?? []).map((assignment) => tools.parseOverride(assignment)),
          validate: options.validate,
          allowRemote: options.allowRemote,
        });
        results.forEach((result) => process.stdout.write(`${tools.describeTrigger(url, result)}\n`));
        const failed = results.filter((result) => result.answer.error !== null).length;
        process.stdout.write(`${results.length} sent, ${results.length - failed} answered 2xx, ${failed} not.\n`);
        process.exitCode = failed === 0 ? 0 : 1;
      } catch (error) {
        couldNotRun('trigger', error);
      }
    });
}
