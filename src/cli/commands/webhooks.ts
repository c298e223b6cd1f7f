/**
 * `boardkit webhooks`: tools for the teams that write webhook receivers: `trigger`, `check-receiver`,
 * `verify` and `resend` (src/webhook-tools). Exit codes follow `boardkit conformance`: 0 all went as it should,
 * 1 the receiver or the delivery failed a rule, 2 the tool could not run (bad options, URL refused,
 * receiver unreachable).
 * @module
 */
import { Command } from 'commander';
import { webhooksCheckReceiverCommand } from './webhooks-check-receiver.js';
import { webhooksResendCommand } from './webhooks-resend.js';
import { webhooksTriggerCommand } from './webhooks-trigger.js';
import { webhooksVerifyCommand } from './webhooks-verify.js';

export function webhooksCommand(): Command {
  return new Command('webhooks')
    .description(
      'send signed test deliveries to a receiver, check a receiver against the verification rules, verify a captured delivery, resend a delivery of boardkit serve',
    )
    .addCommand(webhooksTriggerCommand())
    .addCommand(webhooksCheckReceiverCommand())
    .addCommand(webhooksVerifyCommand())
    .addCommand(webhooksResendCommand());
}
