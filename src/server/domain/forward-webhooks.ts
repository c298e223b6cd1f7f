/**
 * `boardkit serve --forward-webhooks <url>`: every event the server raises, in any workspace, is also
 * delivered to one local URL, signed like any delivery (after `stripe listen --forward-to`). A frontend
 * developer sees real deliveries from a simulated session with one flag and no subscription. The URL is
 * a target of the outbox of its own, a catch-all subscription listening to every event, so forwarded
 * deliveries are retried, paused and listed like the others; it is set afresh at each start and
 * removed when a start does not forward.
 * @module
 */
import type { Forwarding } from '../ports/services.js';
import { webhookEventNames } from '../../webhooks/events.js';
import { checkWebhookSecret, createWebhookSecret } from '../../webhooks/ids.js';
import type { WebhookOutbox } from '../../webhooks/outbox.js';
import { retrySchedules } from '../../webhooks/retry.js';
import { checkWebhookUrl, refusedRangeOf } from '../../webhooks/url-guard.js';
import { internalError } from '../core/internal-errors.js';

/** The outbox id of the forwarding target; no subscription (`wh_…`) or API key id takes this form. */
export const forwardTargetId = 'forward';

export interface ForwardSetting {
  url: string;
  /** The signing secret; a new `whsec_` one when not given. */
  secret?: string | undefined;
}

/**
 * Checks that the URL is a local one: forwarding is for a receiver on the developer's machine, so it
 * must resolve to loopback addresses only. Throws with the reason otherwise.
 */
export async function checkForwardUrl(setting: ForwardSetting): Promise<Forwarding> {
  const check = await checkWebhookUrl(setting.url, { allowPrivate: true });
  if (!check.ok) {
    throw internalError('BOARDKIT_CONFIG_FORWARD_URL', check.reason);
  }
  const remote = check.addresses.find(({ address }) => refusedRangeOf(address) !== 'loopback');
  if (remote !== undefined) {
    throw internalError('BOARDKIT_CONFIG_FORWARD_NOT_LOOPBACK', check.url.host, remote.address);
  }
  return {
    url: setting.url,
    secret:
      setting.secret === undefined ? createWebhookSecret() : checkWebhookSecret(setting.secret, '--forward-secret'),
  };
}

/** Sets the forwarding target of this start (with a fresh breaker), or removes one a previous start left. */
export function configureForwarding(outbox: WebhookOutbox, forwarding: Forwarding | undefined): void {
  outbox.removeTarget(forwardTargetId);
  if (forwarding !== undefined) {
    outbox.saveTarget({
      id: forwardTargetId,
      kind: 'subscription',
      url: forwarding.url,
      secret: forwarding.secret,
      events: [...webhookEventNames],
      schedule: retrySchedules.fourWaits,
    });
  }
}
