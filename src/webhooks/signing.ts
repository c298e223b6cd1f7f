/**
 * Signing and verifying webhook deliveries (seed "Webhook subscriptions" verification rules, "Legacy
 * per-key webhook"; the contract's `x-webhook-delivery.signature`). Senders and receivers use the same
 * functions, so a receiver written with this library checks exactly what the sender signed.
 * @module
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deliveryHeaders, headerValue, legacyDeliveryHeaders, type HeaderSource } from './headers.js';

export { createWebhookSecret } from './ids.js';

/** The replay tolerance of the seed's "Limits" table (`x-webhook-delivery.replay_tolerance_seconds`). */
export const replayToleranceSeconds = 300;

export type RawBody = string | Uint8Array;

export interface SignInput {
  secret: string;
  /** Unix seconds, sent as `X-Service-Timestamp`. */
  timestamp: number | string;
  /** The request body exactly as sent. */
  rawBody: RawBody;
}

export type VerifyResult = { ok: true } | { ok: false; status: 400 | 401; reason: string };

export interface VerifyInput {
  secret: string;
  rawBody: RawBody;
  /** The request headers; or pass `signature` and `timestamp` directly. */
  headers?: HeaderSource;
  signature?: string | undefined;
  timestamp?: string | number | undefined;
  /** The receiver's clock in milliseconds since the epoch; `Date.now()` by default. */
  now?: number;
  toleranceSeconds?: number;
}

export interface LegacyVerifyInput {
  secret: string;
  rawBody: RawBody;
  headers?: HeaderSource;
  signature?: string | undefined;
}

function hmac(secret: string, ...parts: RawBody[]): Buffer {
  const mac = createHmac('sha256', secret);
  parts.forEach((part) => mac.update(part));
  return mac.digest();
}

/** `sha256=` + lowercase hex HMAC-SHA256 of `<timestamp>.<raw_body>`, keyed with the signing secret. */
export function signDelivery({ secret, timestamp, rawBody }: SignInput): string {
  return `sha256=${hmac(secret, `${timestamp}.`, rawBody).toString('hex')}`;
}

/** The legacy `X-Mcp-Signature`: `sha256=` + hex HMAC-SHA256 of the raw body alone (no timestamp). */
export function signLegacyDelivery({ secret, rawBody }: Omit<SignInput, 'timestamp'>): string {
  return `sha256=${hmac(secret, rawBody).toString('hex')}`;
}

const signatureShape = /^sha256=([0-9a-fA-F]{64})$/;

/** Compares a received signature with the expected MAC in constant time (seed rule 1). */
function signatureMatches(received: string, expected: Buffer): boolean {
  const hex = signatureShape.exec(received.trim())?.[1];
  if (hex === undefined) {
    return false;
  }
  // Both buffers are 32 bytes here, as timingSafeEqual requires; a malformed value never reaches it.
  return timingSafeEqual(Buffer.from(hex, 'hex'), expected);
}

/**
 * Checks a delivery the way the seed's receiver rules say: a missing signature or timestamp is `400`;
 * a timestamp more than `toleranceSeconds` from now is `401`; a signature mismatch is `401`.
 */
export function verifyDelivery(input: VerifyInput): VerifyResult {
  const { secret, rawBody, headers, now = Date.now(), toleranceSeconds = replayToleranceSeconds } = input;
  const signature = input.signature ?? (headers && headerValue(headers, deliveryHeaders.signature));
  const timestampText = String(input.timestamp ?? (headers && headerValue(headers, deliveryHeaders.timestamp)) ?? '');
  if (signature === undefined || signature === '') {
    return { ok: false, status: 400, reason: `The ${deliveryHeaders.signature} header is missing.` };
  }
  if (timestampText === '') {
    return { ok: false, status: 400, reason: `The ${deliveryHeaders.timestamp} header is missing.` };
  }
  const timestamp = /^\d{1,15}$/.test(timestampText.trim()) ? Number(timestampText.trim()) : Number.NaN;
  if (Number.isNaN(timestamp)) {
    return { ok: false, status: 400, reason: `${deliveryHeaders.timestamp} is not Unix seconds.` };
  }
  const skewSeconds = Math.round(Math.abs(now - timestamp * 1000) / 1000);
  if (Math.abs(now - timestamp * 1000) > toleranceSeconds * 1000) {
    const reason = `${deliveryHeaders.timestamp} ${timestamp} is ${skewSeconds} seconds from now`;
    return { ok: false, status: 401, reason: `${reason}; the tolerance is ${toleranceSeconds}.` };
  }
  // The MAC covers the timestamp exactly as it was sent, so it is recomputed over the header text.
  if (!signatureMatches(signature, hmac(secret, `${timestampText.trim()}.`, rawBody))) {
    return {
      ok: false,
      status: 401,
      reason: `The ${deliveryHeaders.signature} does not match the HMAC-SHA256 of the timestamp and body.`,
    };
  }
  return { ok: true };
}

/**
 * Checks a legacy per-key delivery: `400` without `X-Mcp-Signature`, `401` on a mismatch. The signature
 * does not cover a timestamp, so replays cannot be refused here; deduplicate on `X-Mcp-Delivery-Id`.
 */
export function verifyLegacyDelivery(input: LegacyVerifyInput): VerifyResult {
  const signature = input.signature ?? (input.headers && headerValue(input.headers, legacyDeliveryHeaders.signature));
  if (signature === undefined || signature === '') {
    return { ok: false, status: 400, reason: `The ${legacyDeliveryHeaders.signature} header is missing.` };
  }
  if (!signatureMatches(signature, hmac(input.secret, input.rawBody))) {
    return {
      ok: false,
      status: 401,
      reason: `The ${legacyDeliveryHeaders.signature} does not match the HMAC-SHA256 of the body.`,
    };
  }
  return { ok: true };
}
