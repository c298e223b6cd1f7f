/**
 * Properties of webhook signing and verifying (seed "Webhook subscriptions" verification rules 1-4 and
 * "Legacy per-key webhook"): what is signed verifies; any changed body byte, signature digit, timestamp
 * or secret is refused with 401; a timestamp more than 300 seconds from the receiver's clock is refused
 * with 401 whatever the signature.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  replayToleranceSeconds,
  signDelivery,
  signLegacyDelivery,
  verifyDelivery,
  verifyLegacyDelivery,
} from '../../src/webhooks/signing.js';

/**
 * Secrets in the contract's shape (`CreateWebhookResponse.signing_secret`). HMAC pads keys shorter than a
 * block with zero bytes (RFC 2104 §2), so two arbitrary strings that differ only by trailing NULs are the
 * same key by definition; the contract's alphabet has no NUL, so "another secret" is always another key.
 */
const secret = fc
  .string({
    unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'),
    minLength: 24,
    maxLength: 64,
  })
  .map((tail) => `whsec_${tail}`);

/** Unix seconds from 2001 to 2286: ten digits, as every current timestamp has. */
const timestamp = fc.integer({ min: 1_000_000_000, max: 9_999_999_999 });

/** Bodies as text (JSON envelopes) and as raw bytes (what a receiver reads off the socket). */
const rawBody = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 512 }),
  fc.json({ maxDepth: 3 }),
  fc.uint8Array({ maxLength: 512 }),
);

const skewWithin = fc.integer({ min: -replayToleranceSeconds * 1000, max: replayToleranceSeconds * 1000 });

function bytesOf(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

/** The signature with the hex digit at `index` replaced by a digit of another value. */
function withDigitChanged(signature: string, index: number, delta: number): string {
  const position = 'sha256='.length + (index % 64);
  const digit = (Number.parseInt(signature[position] ?? '0', 16) + delta) % 16;
  return `${signature.slice(0, position)}${digit.toString(16)}${signature.slice(position + 1)}`;
}

describe('current deliveries (X-Service-Signature over "<timestamp>.<raw_body>")', () => {
  test('a signed delivery verifies at any clock within the tolerance', () => {
    fc.assert(
      fc.property(secret, timestamp, rawBody, skewWithin, (key, seconds, body, skewMs) => {
        const signature = signDelivery({ secret: key, timestamp: seconds, rawBody: body });
        expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
        const now = seconds * 1000 + skewMs;
        expect(verifyDelivery({ secret: key, rawBody: body, signature, timestamp: seconds, now })).toEqual({
          ok: true,
        });
        // The same delivery read from headers, as a receiver gets it.
        const headers = { 'x-service-signature': signature, 'x-service-timestamp': String(seconds) };
        expect(verifyDelivery({ secret: key, rawBody: body, headers, now })).toEqual({ ok: true });
      }),
    );
  });

  test('text and its UTF-8 bytes sign alike', () => {
    fc.assert(
      fc.property(secret, timestamp, fc.string({ unit: 'grapheme', maxLength: 200 }), (key, seconds, text) => {
        expect(signDelivery({ secret: key, timestamp: seconds, rawBody: text })).toBe(
          signDelivery({ secret: key, timestamp: seconds, rawBody: new TextEncoder().encode(text) }),
        );
      }),
    );
  });

  test('any changed byte of the body is refused with 401', () => {
    fc.assert(
      fc.property(
        secret,
        timestamp,
        rawBody.map(bytesOf).filter((bytes) => bytes.length > 0),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (key, seconds, body, index, flip) => {
          const signature = signDelivery({ secret: key, timestamp: seconds, rawBody: body });
          const changed = Uint8Array.from(body);
          const at = index % changed.length;
          changed[at] = (changed[at] ?? 0) ^ flip;
          const result = verifyDelivery({
            secret: key,
            rawBody: changed,
            signature,
            timestamp: seconds,
            now: seconds * 1000,
          });
          expect(result).toMatchObject({ ok: false, status: 401 });
        },
      ),
    );
  });

  test('appending or removing a byte is refused with 401', () => {
    fc.assert(
      fc.property(
        secret,
        timestamp,
        rawBody.map(bytesOf),
        fc.integer({ min: 0, max: 255 }),
        (key, seconds, body, extra) => {
          const signature = signDelivery({ secret: key, timestamp: seconds, rawBody: body });
          const longer = Uint8Array.from([...body, extra]);
          expect(
            verifyDelivery({ secret: key, rawBody: longer, signature, timestamp: seconds, now: seconds * 1000 }),
          ).toMatchObject({
            ok: false,
            status: 401,
          });
          if (body.length > 0) {
            const shorter = body.slice(0, -1);
            expect(
              verifyDelivery({ secret: key, rawBody: shorter, signature, timestamp: seconds, now: seconds * 1000 }),
            ).toMatchObject({ ok: false, status: 401 });
          }
        },
      ),
    );
  });

  test('any changed digit of the signature is refused with 401', () => {
    fc.assert(
      fc.property(
        secret,
        timestamp,
        rawBody,
        fc.nat(),
        fc.integer({ min: 1, max: 15 }),
        (key, seconds, body, index, delta) => {
          const signature = withDigitChanged(
            signDelivery({ secret: key, timestamp: seconds, rawBody: body }),
            index,
            delta,
          );
          const result = verifyDelivery({
            secret: key,
            rawBody: body,
            signature,
            timestamp: seconds,
            now: seconds * 1000,
          });
          expect(result).toMatchObject({ ok: false, status: 401 });
        },
      ),
    );
  });

  test('another secret is refused with 401', () => {
    fc.assert(
      fc.property(secret, secret, timestamp, rawBody, (key, other, seconds, body) => {
        fc.pre(key !== other);
        const signature = signDelivery({ secret: key, timestamp: seconds, rawBody: body });
        const result = verifyDelivery({
          secret: other,
          rawBody: body,
          signature,
          timestamp: seconds,
          now: seconds * 1000,
        });
        expect(result).toMatchObject({ ok: false, status: 401 });
      }),
    );
  });

  test('a signature moved to another timestamp is refused with 401, even within the tolerance', () => {
    fc.assert(
      fc.property(
        secret,
        timestamp,
        rawBody,
        fc.integer({ min: -replayToleranceSeconds, max: replayToleranceSeconds }),
        (key, seconds, body, shift) => {
          fc.pre(shift !== 0);
          const signature = signDelivery({ secret: key, timestamp: seconds, rawBody: body });
          const moved = seconds + shift;
          const result = verifyDelivery({ secret: key, rawBody: body, signature, timestamp: moved, now: moved * 1000 });
          expect(result).toMatchObject({ ok: false, status: 401 });
        },
      ),
    );
  });

  test('a timestamp more than 300 s from now is refused with 401, even when correctly signed', () => {
    const beyond = fc.integer({ min: replayToleranceSeconds * 1000 + 1, max: 10 * 365 * 86_400_000 });
    fc.assert(
      fc.property(secret, timestamp, rawBody, beyond, fc.boolean(), (key, seconds, body, distanceMs, late) => {
        const signature = signDelivery({ secret: key, timestamp: seconds, rawBody: body });
        const now = seconds * 1000 + (late ? distanceMs : -distanceMs);
        const result = verifyDelivery({ secret: key, rawBody: body, signature, timestamp: seconds, now });
        expect(result).toMatchObject({ ok: false, status: 401 });
      }),
    );
  });

  test('a missing signature or timestamp is refused with 400 (rule 3)', () => {
    fc.assert(
      fc.property(secret, timestamp, rawBody, (key, seconds, body) => {
        const signature = signDelivery({ secret: key, timestamp: seconds, rawBody: body });
        const now = seconds * 1000;
        expect(
          verifyDelivery({ secret: key, rawBody: body, headers: { 'x-service-timestamp': String(seconds) }, now }),
        ).toMatchObject({ ok: false, status: 400 });
        expect(
          verifyDelivery({ secret: key, rawBody: body, headers: { 'x-service-signature': signature }, now }),
        ).toMatchObject({ ok: false, status: 400 });
      }),
    );
  });

  test('any text in the headers gets a 400 or 401 verdict, never an exception', () => {
    fc.assert(
      fc.property(
        secret,
        rawBody,
        fc.string(),
        fc.string(),
        timestamp,
        (key, body, signature, timestampText, seconds) => {
          const result = verifyDelivery({
            secret: key,
            rawBody: body,
            signature,
            timestamp: timestampText,
            now: seconds * 1000,
          });
          expect(result.ok).toBe(false);
          expect([400, 401]).toContain(result.ok ? 200 : result.status);
        },
      ),
    );
  });
});

describe('legacy deliveries (X-Mcp-Signature over the raw body alone)', () => {
  test('a signed delivery verifies; a changed byte, digit or secret is refused with 401', () => {
    fc.assert(
      fc.property(
        secret,
        secret,
        rawBody.map(bytesOf).filter((bytes) => bytes.length > 0),
        fc.nat(),
        fc.integer({ min: 1, max: 15 }),
        (key, other, body, index, delta) => {
          const signature = signLegacyDelivery({ secret: key, rawBody: body });
          expect(verifyLegacyDelivery({ secret: key, rawBody: body, signature })).toEqual({ ok: true });

          const changed = Uint8Array.from(body);
          const at = index % changed.length;
          changed[at] = ((changed[at] ?? 0) + delta) % 256;
          expect(verifyLegacyDelivery({ secret: key, rawBody: changed, signature })).toMatchObject({
            ok: false,
            status: 401,
          });
          expect(
            verifyLegacyDelivery({ secret: key, rawBody: body, signature: withDigitChanged(signature, index, delta) }),
          ).toMatchObject({ ok: false, status: 401 });
          if (other !== key) {
            expect(verifyLegacyDelivery({ secret: other, rawBody: body, signature })).toMatchObject({
              ok: false,
              status: 401,
            });
          }
        },
      ),
    );
  });
});
