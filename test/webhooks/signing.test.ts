import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  createWebhookSecret,
  signDelivery,
  signLegacyDelivery,
  verifyDelivery,
  verifyLegacyDelivery,
} from '../../src/index.js';
import { testVector as vector } from './fixtures/test-vector.js';

const signedAt = vector.timestamp * 1000;

describe("the contract's test vector", () => {
  test('signDelivery reproduces the current signature', () => {
    const { signing_secret: secret, timestamp, raw_body: rawBody } = vector;
    expect(signDelivery({ secret, timestamp, rawBody })).toBe(vector.signature);
  });

  test('signLegacyDelivery reproduces the legacy signature (body alone)', () => {
    const { legacy_secret: secret, legacy_raw_body: rawBody } = vector;
    expect(signLegacyDelivery({ secret, rawBody })).toBe(vector.legacy_signature);
  });

  test('a receiver accepts the vector from Node headers, a Headers object and explicit values', () => {
    const stamp = String(vector.timestamp);
    const nodeHeaders = { 'x-service-signature': vector.signature, 'x-service-timestamp': stamp };
    const fetchHeaders = new Headers({ 'X-Service-Signature': vector.signature, 'X-Service-Timestamp': stamp });
    const common = { secret: vector.signing_secret, rawBody: vector.raw_body, now: signedAt + 120_000 };
    expect(verifyDelivery({ ...common, headers: nodeHeaders })).toEqual({ ok: true });
    expect(verifyDelivery({ ...common, headers: fetchHeaders })).toEqual({ ok: true });
    const explicit = { signature: vector.signature, timestamp: vector.timestamp };
    expect(verifyDelivery({ ...common, ...explicit })).toEqual({ ok: true });
    const bytes = Buffer.from(vector.raw_body);
    expect(verifyDelivery({ ...common, rawBody: bytes, headers: nodeHeaders })).toEqual({ ok: true });
  });

  test('a receiver accepts the legacy vector, and the current scheme refuses it', () => {
    const legacy = { secret: vector.legacy_secret, rawBody: vector.legacy_raw_body };
    const headers = { 'X-Mcp-Signature': vector.legacy_signature };
    expect(verifyLegacyDelivery({ ...legacy, headers })).toEqual({ ok: true });
    const asCurrent = { signature: vector.legacy_signature, timestamp: vector.timestamp, now: signedAt };
    expect(verifyDelivery({ ...legacy, ...asCurrent })).toMatchObject({ ok: false, status: 401 });
  });
});

describe('verification rules (seed "Webhook subscriptions")', () => {
  const base = { secret: vector.signing_secret, rawBody: vector.raw_body, now: signedAt };
  const signed = { signature: vector.signature, timestamp: vector.timestamp };

  test('a missing signature or timestamp is 400', () => {
    expect(verifyDelivery({ ...base, headers: { 'x-service-timestamp': '1795166395' } })).toEqual({
      ok: false,
      status: 400,
      reason: 'The X-Service-Signature header is missing.',
    });
    expect(verifyDelivery({ ...base, headers: { 'x-service-signature': vector.signature } })).toEqual({
      ok: false,
      status: 400,
      reason: 'The X-Service-Timestamp header is missing.',
    });
    expect(verifyDelivery({ ...base, headers: {} })).toMatchObject({ status: 400 });
    const legacy = { secret: vector.legacy_secret, rawBody: '{}', headers: {} };
    expect(verifyLegacyDelivery(legacy)).toMatchObject({ ok: false, status: 400 });
  });

  test('a timestamp that is not Unix seconds is 400', () => {
    for (const timestamp of ['soon', '-5', '1795166395.5', '2026-11-20T09:19:55Z']) {
      expect(verifyDelivery({ ...base, signature: vector.signature, timestamp })).toMatchObject({ status: 400 });
    }
  });

  test('300 seconds of skew either way is accepted, 301 is 401', () => {
    const at = (seconds: number) => verifyDelivery({ ...base, ...signed, now: signedAt + seconds * 1000 });
    expect(at(300)).toEqual({ ok: true });
    expect(at(-300)).toEqual({ ok: true });
    expect(at(301)).toEqual({
      ok: false,
      status: 401,
      reason: 'X-Service-Timestamp 1795166395 is 301 seconds from now; the tolerance is 300.',
    });
    expect(at(-301)).toMatchObject({ ok: false, status: 401 });
    expect(verifyDelivery({ ...base, ...signed, now: signedAt + 300_001 })).toMatchObject({ status: 401 });
  });

  test('a mismatch is 401, malformed signatures included', () => {
    const wrong = `sha256=${'0'.repeat(64)}`;
    const hex = vector.signature.slice('sha256='.length);
    for (const signature of [wrong, 'sha256=abc', hex, `sha1=${hex}`, `${vector.signature}00`]) {
      const result = verifyDelivery({ ...base, signature, timestamp: vector.timestamp });
      expect(result).toMatchObject({ ok: false, status: 401 });
    }
    const legacy = { secret: vector.legacy_secret, rawBody: '{}', signature: wrong };
    expect(verifyLegacyDelivery(legacy)).toMatchObject({ status: 401 });
  });

  test('the signature covers the timestamp as sent', () => {
    const later = vector.timestamp + 1;
    expect(verifyDelivery({ ...base, signature: vector.signature, timestamp: later })).toMatchObject({ status: 401 });
  });
});

test('createWebhookSecret matches the contract pattern and never repeats', () => {
  const secrets = Array.from({ length: 200 }, createWebhookSecret);
  secrets.forEach((secret) => expect(secret).toMatch(/^whsec_[A-Za-z0-9]{24,64}$/));
  expect(new Set(secrets).size).toBe(secrets.length);
});

describe('properties', () => {
  const secret = fc.string({ minLength: 1, maxLength: 64 });
  const timestamp = fc.integer({ min: 0, max: 4_102_444_800 });
  const body = fc.uint8Array({ minLength: 1, maxLength: 512 });
  const withinTolerance = fc.integer({ min: -300, max: 300 });
  const beyondTolerance = fc.integer({ min: 301, max: 10_000_000 });

  test('what is signed verifies', () => {
    fc.assert(
      fc.property(secret, timestamp, body, withinTolerance, (key, ts, rawBody, skew) => {
        const signature = signDelivery({ secret: key, timestamp: ts, rawBody });
        const now = (ts + skew) * 1000;
        expect(verifyDelivery({ secret: key, rawBody, signature, timestamp: ts, now })).toEqual({ ok: true });
        const legacy = signLegacyDelivery({ secret: key, rawBody });
        expect(verifyLegacyDelivery({ secret: key, rawBody, signature: legacy })).toEqual({ ok: true });
      }),
    );
  });

  test('any changed byte of the body is refused', () => {
    fc.assert(
      fc.property(secret, timestamp, body, fc.nat(), fc.integer({ min: 1, max: 255 }), (key, ts, raw, at, flip) => {
        const signature = signDelivery({ secret: key, timestamp: ts, rawBody: raw });
        const changed = Uint8Array.from(raw);
        const index = at % changed.length;
        changed[index] = (changed[index] ?? 0) ^ flip;
        const result = verifyDelivery({ secret: key, rawBody: changed, signature, timestamp: ts, now: ts * 1000 });
        expect(result).toMatchObject({ ok: false, status: 401 });
        const legacy = signLegacyDelivery({ secret: key, rawBody: raw });
        const legacyResult = verifyLegacyDelivery({ secret: key, rawBody: changed, signature: legacy });
        expect(legacyResult).toMatchObject({ ok: false, status: 401 });
      }),
    );
  });

  test('a wrong secret is refused', () => {
    fc.assert(
      fc.property(secret, secret, timestamp, body, (key, other, ts, rawBody) => {
        fc.pre(key !== other);
        const signature = signDelivery({ secret: key, timestamp: ts, rawBody });
        const result = verifyDelivery({ secret: other, rawBody, signature, timestamp: ts, now: ts * 1000 });
        expect(result).toMatchObject({ ok: false, status: 401 });
      }),
    );
  });

  test('a timestamp more than 300 seconds from now is refused, even when correctly signed', () => {
    fc.assert(
      fc.property(secret, timestamp, body, beyondTolerance, fc.boolean(), (key, ts, rawBody, skew, ahead) => {
        const signature = signDelivery({ secret: key, timestamp: ts, rawBody });
        const now = (ts + (ahead ? skew : -skew)) * 1000;
        const result = verifyDelivery({ secret: key, rawBody, signature, timestamp: ts, now });
        expect(result).toMatchObject({ ok: false, status: 401 });
      }),
    );
  });
});
