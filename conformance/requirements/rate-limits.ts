/**
 * Rate limits (seed "Limits" rule 1, "Errors": 429 with Retry-After). The category spends quota, so it
 * runs only when selected.
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const rateLimitRequirements: readonly RequirementDefinition[] = [
  {
    id: 'RATE-001',
    level: 'MUST',
    category: 'rate-limits',
    seed: 'Limits 1',
    provenance: 'stated',
    statement: 'Exceeding a limit is answered 429 rate-limited with a Retry-After header in seconds.',
  },
  {
    id: 'RATE-002',
    level: 'MUST',
    category: 'rate-limits',
    seed: 'Errors › Error catalog',
    provenance: 'stated',
    statement: 'Retry-After is truthful: the same request is accepted once the announced wait has passed.',
  },
  {
    id: 'RATE-003',
    level: 'MUST',
    category: 'rate-limits',
    seed: 'Limits',
    provenance: 'stated',
    statement: "A key that exhausted its limit does not limit another workspace's key.",
  },
  {
    id: 'RATE-004',
    level: 'SHOULD',
    category: 'rate-limits',
    seed: 'Limits 2',
    provenance: 'designed',
    statement:
      'RateLimit and RateLimit-Policy name the same bucket, and the remaining quota falls by one per request until it reaches 0.',
    references: ['draft-ietf-httpapi-ratelimit-headers-10'],
  },
  {
    id: 'RATE-005',
    level: 'MAY',
    category: 'rate-limits',
    seed: 'Errors › Error catalog',
    provenance: 'variant',
    statement: 'A 429 body may repeat the wait in retry_after_s; when it does, it equals Retry-After.',
  },
];
