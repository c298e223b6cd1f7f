/**
 * Versioning (seed "Versioning" 4): the date version every response is processed as, and pinning it.
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const versioningRequirements: readonly RequirementDefinition[] = [
  {
    id: 'VER-001',
    level: 'MUST',
    category: 'versioning',
    seed: 'Versioning 4',
    provenance: 'stated',
    statement: 'Every response carries X-Service-API-Version with a date version shaped YYYY-MM-DD.',
  },
  {
    id: 'VER-002',
    level: 'MUST',
    category: 'versioning',
    seed: 'Versioning 4',
    provenance: 'stated',
    statement:
      'A request that sends X-Service-API-Version with a supported version is processed as, and answered with, that version.',
  },
  {
    id: 'VER-003',
    level: 'SHOULD',
    category: 'versioning',
    seed: 'Versioning 4',
    provenance: 'designed',
    statement: 'A pin to a version the service does not know is answered 400 invalid-request.',
  },
  {
    id: 'VER-004',
    level: 'SHOULD',
    category: 'versioning',
    seed: 'Versioning 4',
    provenance: 'designed',
    statement:
      "A pinned request gets its version's documented behaviour: a board-lineup start answers A1 under 2026-04-01 and A2 under 2026-10-01.",
    references: ['x-api-versions', 'docs/decisions.md › Addresses and versions'],
  },
  {
    id: 'VER-005',
    level: 'SHOULD',
    category: 'versioning',
    seed: 'Versioning 4',
    provenance: 'designed',
    statement: 'The health probe reports the same api_version as its X-Service-API-Version header.',
  },
];
