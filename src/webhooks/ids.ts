/**
 * Random identifiers and secrets of the webhook system: `evt_` events, `dlv_` deliveries, `att_` attempts and `whsec_`
 * signing secrets. The contract's patterns allow `[A-Za-z0-9]{8,64}` after the prefix (`{24,64}` for a
 * secret); 24 alphanumerics carry about 143 bits, 32 about 190.
 * @module
 */
import { randomBytes } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// The largest multiple of 62 below 256: bytes above it are dropped so that every letter is equally likely.
const unbiasedLimit = 256 - (256 % alphabet.length);

/** `length` characters drawn uniformly from `[A-Za-z0-9]` with a CSPRNG. */
export function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte < unbiasedLimit && out.length < length) {
        out += alphabet[byte % alphabet.length];
      }
    }
  }
  return out;
}

/** An event id, the `id` of the published envelope form. */
export function createEventId(): string {
  return `evt_${randomAlphanumeric(24)}`;
}

/** A delivery id, sent as `X-Service-Delivery-Id` and the same on every retry of the delivery. */
export function createDeliveryId(): string {
  return `dlv_${randomAlphanumeric(24)}`;
}

/** The id of one delivery attempt (`WebhookDeliveryAttempt.id`). */
export function createAttemptId(): string {
  return `att_${randomAlphanumeric(24)}`;
}

/** A new signing secret, returned once when a subscription is created (`CreateWebhookResponse`). */
export function createWebhookSecret(): string {
  return `whsec_${randomAlphanumeric(32)}`;
}

/**
 * The one rule for a signing secret given to the kit (`serve --forward-secret` and legacy secrets,
 * `webhooks trigger`, `check-receiver`, `verify`). The seed gives `signing_secret` no format, so any
 * secret a service issues must pass: visible ASCII without spaces (`whsec_…` as the kit makes them,
 * underscores and other punctuation included), long enough not to be a slip.
 */
const webhookSecretPattern = /^[\x21-\x7e]{8,256}$/;

/** Returns `secret` when it follows the rule; throws naming `option` and the rule otherwise. */
export function checkWebhookSecret(secret: string, option: string): string {
  if (!webhookSecretPattern.test(secret)) {
    throw new Error(
      `${option}: a webhook signing secret is 8 to 256 visible ASCII characters without spaces (such as whsec_…)`,
    );
  }
  return secret;
}
