/**
 * Rate limits per key and bucket (seed "Limits"; the contract's `x-rate-limit-buckets`): starts 60,
 * messages 600 and reads 3,000 per minute on Ultra; other tiers scale the Pro baseline (Ultra ÷ 16) by
 * their multiplier. Windows are measured on the server clock, so `--time-scale` shortens them.
 * Answers carry `RateLimit` and `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers-10).
 * @module
 */
import type { RateLimitBucket, RateLimiter } from '../ports/services.js';
import { rateLimitBuckets } from '../../contract/extensions.js';
import type { OpenApiDocument } from '../../contract/load.js';
import { ProblemError } from '../core/problems.js';
import type { WindowCounter } from '../store/rate-limit-windows.js';
import type { Tier } from '../ports/records.js';

/** `windows` counts the requests: in memory for the server (src/server/store/rate-limit-windows.ts). */
export function rateLimiter(document: OpenApiDocument, windows: WindowCounter): RateLimiter {
  const catalogue = rateLimitBuckets(document);
  const windowMs = catalogue.windowSeconds * 1000;
  const ultraMultiplier = Number(catalogue.tierMultipliers['ultra']);

  function quota(bucket: RateLimitBucket, tier: Tier): number {
    const ultra = catalogue.ultraPerMinute.get(bucket) ?? 0;
    const multiplier = catalogue.tierMultipliers[tier];
    // Enterprise is "custom per contract": the reference server grants it the Ultra quota.
    if (typeof multiplier !== 'number') {
      return ultra;
    }
    return Math.max(1, Math.floor((ultra / ultraMultiplier) * multiplier));
  }

  // The quota and the `RateLimit-Policy` value of each bucket and tier, worked out once rather than on
  // every request.
  const policies = new Map<RateLimitBucket, Map<Tier, { limit: number; policy: string }>>();
  function policyOf(bucket: RateLimitBucket, tier: Tier): { limit: number; policy: string } {
    let byTier = policies.get(bucket);
    if (byTier === undefined) {
      byTier = new Map();
      policies.set(bucket, byTier);
    }
    let entry = byTier.get(tier);
    if (entry === undefined) {
      const limit = quota(bucket, tier);
      entry = { limit, policy: `"${bucket}";q=${limit};w=${catalogue.windowSeconds}` };
      byTier.set(tier, entry);
    }
    return entry;
  }

  return {
    quota,
    hit(subject, bucket, tier, now) {
      const { limit, policy } = policyOf(bucket, tier);
      const windowStart = Math.floor(now / windowMs) * windowMs;
      const { count } = windows.hit(subject, bucket, windowStart);
      const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
      const headers = {
        RateLimit: `"${bucket}";r=${Math.max(0, limit - count)};t=${resetSeconds}`,
        'RateLimit-Policy': policy,
      };
      if (count > limit) {
        throw new ProblemError(
          429,
          `The ${bucket} bucket allows ${limit} requests per ${catalogue.windowSeconds} seconds; retry in ${resetSeconds} seconds.`,
          { retry_after_s: resetSeconds },
          { ...headers, 'Retry-After': String(resetSeconds) },
        );
      }
      return { headers };
    },
    forget: () => windows.forget(),
  };
}
