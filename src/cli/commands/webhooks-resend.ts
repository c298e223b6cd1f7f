/**
 * `boardkit webhooks resend <delivery-id>`: one delivery `boardkit serve` made, sent again from its store
 * (src/webhook-tools/resend.ts), signed anew, to its receiver or to `--url`. Exit code 0 when answered
 * 2xx, 1 when not, 2 when nothing could be sent (no such store or delivery, URL refused).
 * @module
 */
import { join } from 'node:path';
import { Command } from 'commander';
import { couldNotRun } from '../webhook-exit.js';

interface ResendOptions {
  db: string;
  url?: string;
  secret?: string;
  newId: boolean;
  allowRemote: boolean;
}

export function webhooksResendCommand(): Command {
  return new Command('resend')
    .description('send a delivery of boardkit serve again, from its store, signed anew at the wall clock')
    .argument('<delivery-id>', 'the X-Service-Delivery-Id (delivery_id in GET /v1/webhooks/{id}/deliveries)')
    .option('--db <file>', 'the database of boardkit serve (its --db)', join('.boardkit', 'board.db'))
    .option('--url <url>', "where to send it; the subscription's URL by default (loopback only unless --allow-remote)")
    .option('--secret <secret>', "the signing secret; the subscription's by default")
    .option(
      '--new-id',
      'send it as a new delivery, under a new delivery id (by default the same id, as a retry)',
      false,
    )
    .option('--allow-remote', 'deliver to a host that is not a loopback address', false)
    .action(async (deliveryId: string, options: ResendOptions) => {
      try {
        const tools = await import('../../webhook-tools/index.js');
        const result = await tools.resendDelivery({
          db: options.db,
          deliveryId,
          newId: options.newId,
          allowRemote: options.allowRemote,
          ...(options.url === undefined ? {} : { url: options.url }),
          ...(options.secret === undefined ? {} : { secret: options.secret }),
        });
        process.stdout.write(tools.describeTrigger(result.url, result));
        process.exitCode = result.answer.error === null ? 0 : 1;
      } catch (error) {
        couldNotRun('resend', error);
      }
    });
}
