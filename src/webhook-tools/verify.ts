/**
 * `boardkit webhooks verify`: checks one captured delivery with the library's own `verifyDelivery` (or
 * `verifyLegacyDelivery`), and says what the signature should have been, so a user can see whether the
 * secret, the timestamp or the body bytes differ from what was signed.
 * @module
 */
import { deliveryHeaders, legacyDeliveryHeaders } from '../webhooks/headers.js';
import { checkWebhookSecret } from '../webhooks/ids.js';
import {
  replayToleranceSeconds,
  signDelivery,
  signLegacyDelivery,
  verifyDelivery,
  verifyLegacyDelivery,
  type VerifyResult,
} from '../webhooks/signing.js';

export interface CapturedDelivery {
  secret: string;
  /** The raw body bytes as received. */
  body: Uint8Array;
  signature?: string | undefined;
  /** Not part of a legacy delivery's signature. */
  timestamp?: string | undefined;
  legacy?: boolean;
  /** The receiver's clock, epoch ms; the wall clock by default. */
  now?: number;
}

export interface CapturedVerdict {
  result: VerifyResult;
  /** The signature the delivery should carry for this secret, timestamp and body. */
  expectedSignature: string | undefined;
  /** Seconds between the timestamp and `now` (positive when the timestamp is in the past). */
  ageSeconds: number | undefined;
}

export function verifyCaptured(input: CapturedDelivery): CapturedVerdict {
  checkWebhookSecret(input.secret, '--secret');
  const now = input.now ?? Date.now();
  if (input.legacy === true) {
    return {
      result: verifyLegacyDelivery({ secret: input.secret, rawBody: input.body, signature: input.signature }),
      expectedSignature: signLegacyDelivery({ secret: input.secret, rawBody: input.body }),
      ageSeconds: undefined,
    };
  }
  const timestamp = input.timestamp?.trim();
  const numeric = timestamp !== undefined && /^\d{1,15}$/.test(timestamp);
  return {
    result: verifyDelivery({ secret: input.secret, rawBody: input.body, signature: input.signature, timestamp, now }),
    expectedSignature: numeric ? signDelivery({ secret: input.secret, timestamp, rawBody: input.body }) : undefined,
    ageSeconds: numeric ? Math.round(now / 1000 - Number(timestamp)) : undefined,
  };
}

/** The verdict in a few lines for the terminal. */
export function describeVerdict(input: CapturedDelivery, verdict: CapturedVerdict): string {
  const names = input.legacy === true ? legacyDeliveryHeaders : deliveryHeaders;
  const lines = [
    verdict.result.ok ? 'ok: the signature verifies' : `${verdict.result.status}: ${verdict.result.reason}`,
  ];
  lines.push(`  body:     ${input.body.byteLength} bytes`);
  if (verdict.ageSeconds !== undefined) {
    lines.push(
      `  ${names.timestamp}: ${input.timestamp} (${verdict.ageSeconds} s ago; tolerance ${replayToleranceSeconds} s)`,
    );
  }
  lines.push(`  received: ${input.signature ?? '(none)'}`);
  if (verdict.expectedSignature !== undefined) {
    lines.push(`  expected: ${verdict.expectedSignature}`);
  }
  return `${lines.join('\n')}\n`;
}
