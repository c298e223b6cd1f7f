/**
 * Rate limits per key and bucket (seed "Limits"; the contract's `x-rate-limit-buckets`): starts 60,
 * messages 600, reads 3,000 per minute on Ultra, `429` with `Retry-After` and `retry_after_s`, windows on
 * the server clock, and tier multipliers on the Pro baseline.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { rateLimiter } from '../../src/server/domain/rate-limit.js';
import { memoryWindows } from '../../src/server/store/rate-limit-windows.js';
import { startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

/** A start that fails validation: it is counted against `starts` without starting anything. */
function invalidStart(key?: string): Promise<Response> {
  return server.request('/v1/sessions', {
    method: 'POST',
    json: { mode: 'boardroom', rounds: 0 },
    ...(key === undefined ? {} : { key }),
  });
}

describe('the starts bucket', () => {
  test('60 starts a minute pass, the 61st is a 429 with Retry-After and retry_after_s', async () => {
    // Line up with the start of a window so that all requests fall into the same one.
    server.clock.advance(60_000 - (server.clock.now() % 60_000));
    for (let count = 1; count <= 60; count += 1) {
      const response = await invalidStart();
      expect(response.status).toBe(400);
      expect(response.headers.get('ratelimit')).toBe(`"starts";r=${60 - count};t=60`);
      await response.arrayBuffer();
    }
    server.clock.advance(15_000);
    const limited = await invalidStart();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(limited.headers.get('ratelimit-policy')).toBe('"starts";q=60;w=60');
    const problem = (await limited.json()) as { type: string; retry_after_s: number };
    expect(problem.type).toMatch(/\/rate-limited$/);
    expect(problem.retry_after_s).toBe(45);
  });

  test('other buckets and other keys are counted apart', async () => {
    const read = await server.request('/v1/sessions');
    expect(read.status).toBe(200);
    await read.arrayBuffer();
    const otherKey = await invalidStart(server.otherKey);
    expect(otherKey.status).toBe(400);
    await otherKey.arrayBuffer();
  });

  test('the next window starts afresh', async () => {
    server.clock.advance(45_000);
    const response = await invalidStart();
    expect(response.status).toBe(400);
    expect(response.headers.get('ratelimit')).toBe('"starts";r=59;t=60');
    await response.arrayBuffer();
  });
});

describe('quotas', () => {
  const limiter = rateLimiter(loadContract(), memoryWindows());

  test('Ultra has the stated quotas', () => {
    expect(limiter.quota('starts', 'ultra')).toBe(60);
    expect(limiter.quota('messages', 'ultra')).toBe(600);
    expect(limiter.quota('reads', 'ultra')).toBe(3000);
  });

  test('other tiers scale the Pro baseline (Ultra / 16) by their multiplier', () => {
    expect(limiter.quota('reads', 'pro')).toBe(187);
    expect(limiter.quota('reads', 'max')).toBe(618);
    expect(limiter.quota('reads', 'free')).toBe(28);
    expect(limiter.quota('starts', 'free')).toBe(1);
    expect(limiter.quota('starts', 'enterprise')).toBe(60);
  });
});
