/**
 * Idempotency keys (seed "Endpoints": every write accepts Idempotency-Key; "Limits": a repeated key
 * within 24 hours returns the original response; "Errors": 409 for an idempotency conflict).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const idempotencyRequirements: readonly RequirementDefinition[] = [
  {
    id: 'IDEM-001',
    level: 'MUST',
    category: 'idempotency',
    seed: 'Endpoints',
    provenance: 'stated',
    statement: 'A write that carries an Idempotency-Key is processed like the same write without one.',
  },
  {
    id: 'IDEM-002',
    level: 'MUST',
    category: 'idempotency',
    seed: 'Limits',
    provenance: 'stated',
    statement:
      'Repeating a write with the same key and body returns the original status and body and does not act again.',
  },
  {
    id: 'IDEM-003',
    level: 'MUST',
    category: 'idempotency',
    seed: 'Errors › Error catalog',
    provenance: 'stated',
    statement: 'Reusing a key with a different body is answered 409 conflict and does not act.',
  },
  {
    id: 'IDEM-004',
    level: 'MUST',
    category: 'idempotency',
    seed: 'Limits',
    provenance: 'stated',
    statement:
      'Concurrent requests with one key create one resource; every answer is the original response or 409 conflict.',
  },
  {
    id: 'IDEM-005',
    level: 'MUST',
    category: 'idempotency',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement:
      "Keys are scoped per workspace: another workspace using the same key gets its own result, never the first workspace's response.",
  },
  {
    id: 'IDEM-006',
    level: 'SHOULD',
    category: 'idempotency',
    seed: 'Limits',
    provenance: 'designed',
    statement: 'A replayed response carries Idempotent-Replayed: true, and the original does not.',
    references: ['docs/decisions.md › Errors'],
  },
  {
    id: 'IDEM-007',
    level: 'MUST',
    category: 'idempotency',
    seed: 'Limits',
    provenance: 'stated',
    statement:
      'A replay 23 hours after the original request, inside the 24-hour window, still returns the original response.',
  },
];
