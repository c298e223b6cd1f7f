/**
 * Seed "Webhook subscriptions" verification rule 1: the signature is compared in constant time. Timing
 * cannot be asserted reliably in a test, so this checks the mechanism instead: every verification that
 * reaches the comparison decides it with `crypto.timingSafeEqual` over two 32-byte MACs, for matching
 * and for mismatching signatures alike. Node's own `timingSafeEqual` still does the work; the wrapper only
 * records its calls.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Comparison } from '../support/timing-safe-equal.js';

const comparisons = vi.hoisted(() => ({ calls: [] as Comparison[] }));

vi.mock('node:crypto', async (importOriginal) => {
  const { recordingCrypto } = await import('../support/timing-safe-equal.js');
  return recordingCrypto(await importOriginal<typeof import('node:crypto')>(), comparisons.calls);
});

const { signDelivery, signLegacyDelivery, verifyDelivery, verifyLegacyDelivery } =
  await import('../../src/webhooks/signing.js');

const secret = fc
  .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 24, maxLength: 40 })
  .map((tail) => `whsec_${tail}`);
const timestamp = fc.integer({ min: 1_000_000_000, max: 9_999_999_999 });
const body = fc.string({ maxLength: 200 });
const hexSignature = fc
  .string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 })
  .map((hex) => `sha256=${hex}`);

afterEach(() => {
  comparisons.calls.length = 0;
});

describe('constant-time comparison', () => {
  test('a matching signature is accepted by timingSafeEqual over two 32-byte MACs', () => {
    fc.assert(
      fc.property(secret, timestamp, body, (key, seconds, raw) => {
        comparisons.calls.length = 0;
        const signature = signDelivery({ secret: key, timestamp: seconds, rawBody: raw });
        expect(
          verifyDelivery({ secret: key, rawBody: raw, signature, timestamp: seconds, now: seconds * 1000 }).ok,
        ).toBe(true);
        expect(comparisons.calls).toEqual([{ left: 32, right: 32, equal: true }]);
      }),
    );
  });

  test('a well-formed wrong signature is refused by timingSafeEqual too, not by an early exit', () => {
    fc.assert(
      fc.property(secret, timestamp, body, hexSignature, (key, seconds, raw, signature) => {
        fc.pre(signature !== signDelivery({ secret: key, timestamp: seconds, rawBody: raw }));
        comparisons.calls.length = 0;
        expect(
          verifyDelivery({ secret: key, rawBody: raw, signature, timestamp: seconds, now: seconds * 1000 }).ok,
        ).toBe(false);
        expect(comparisons.calls).toEqual([{ left: 32, right: 32, equal: false }]);
      }),
    );
  });

  test('legacy signatures are compared the same way', () => {
    fc.assert(
      fc.property(secret, body, hexSignature, (key, raw, wrong) => {
        comparisons.calls.length = 0;
        const signature = signLegacyDelivery({ secret: key, rawBody: raw });
        expect(verifyLegacyDelivery({ secret: key, rawBody: raw, signature }).ok).toBe(true);
        fc.pre(wrong !== signature);
        expect(verifyLegacyDelivery({ secret: key, rawBody: raw, signature: wrong }).ok).toBe(false);
        expect(comparisons.calls).toEqual([
          { left: 32, right: 32, equal: true },
          { left: 32, right: 32, equal: false },
        ]);
      }),
    );
  });
});
