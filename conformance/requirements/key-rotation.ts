/**
 * Key rotation (seed "Authentication" 4, "Limits": old key validity after rotation, 24 hours), tested
 * with a key the test control provisions and rotates, and the clock jumped through the grace, or with
 * keys the implementer rotated beforehand (`--rotated-key`, `--expired-key`).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const keyRotationRequirements: readonly RequirementDefinition[] = [
  {
    id: 'KROT-001',
    level: 'MUST',
    category: 'key-rotation',
    seed: 'Authentication 4',
    provenance: 'stated',
    statement: 'After a key is rotated, the old key keeps working until 24 hours have passed.',
  },
  {
    id: 'KROT-002',
    level: 'MUST',
    category: 'key-rotation',
    seed: 'Limits',
    provenance: 'stated',
    statement: 'Once 24 hours have passed since its rotation, the old key is answered 401 unauthorized.',
  },
  {
    id: 'KROT-003',
    level: 'SHOULD',
    category: 'key-rotation',
    seed: 'Authentication 4',
    provenance: 'designed',
    statement: "The key a rotation issues works at once and reaches the old key's workspace.",
  },
];
