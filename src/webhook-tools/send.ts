/**
 * Sending a delivery from the developer tools. They target a receiver on the developer's machine: by
 * default the URL must resolve to loopback addresses only, so a mistyped URL never posts signed test
 * events to a host elsewhere; `allowRemote` (the commands' `--allow-remote`) lifts that for a staging
 * receiver. The socket connects to exactly the addresses checked (see delivery-request.ts).
 * @module
 */
import { webhookDelivery } from '../contract/extensions.js';
import { loadContract } from '../contract/load.js';
import { postDelivery, type PostResult } from '../webhooks/delivery-request.js';
import { checkWebhookUrl, refusedRangeOf } from '../webhooks/url-guard.js';
import type { OutgoingDelivery } from './delivery.js';

export interface SendOptions {
  url: string;
  /** Deliver to hosts that are not loopback addresses. */
  allowRemote?: boolean;
  /** The service's attempt timeout (`x-webhook-delivery`) by default. */
  timeoutMs?: number;
}

/** Thrown when the URL may not be used at all: nothing was sent. */
export class ReceiverUrlError extends Error {
  override name = 'ReceiverUrlError';
}

/** Checks the URL once; the returned sender posts to the addresses checked. */
export async function receiverSender(
  options: SendOptions,
): Promise<(delivery: OutgoingDelivery) => Promise<PostResult>> {
  const check = await checkWebhookUrl(options.url, { allowPrivate: true });
  if (!check.ok) {
    throw new ReceiverUrlError(check.reason);
  }
  const remote = check.addresses.find(({ address }) => refusedRangeOf(address) !== 'loopback');
  if (remote !== undefined && options.allowRemote !== true) {
    throw new ReceiverUrlError(
      `${check.url.host} is ${remote.address}, not a loopback address; pass --allow-remote to deliver to another host.`,
    );
  }
  return (delivery) =>
    postDelivery({
      url: options.url,
      headers: delivery.headers,
      body: delivery.body,
      timeoutMs: options.timeoutMs ?? webhookDelivery(loadContract()).attemptTimeoutMs,
      allowPrivate: true,
      resolve: async () => check.addresses,
      keepResponse: true,
    });
}
