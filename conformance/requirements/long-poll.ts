/**
 * Long-polling (seed "What the service does" 5; "Endpoints": GET /v1/sessions/{id} takes wait_ms).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const longPollRequirements: readonly RequirementDefinition[] = [
  {
    id: 'POLL-001',
    level: 'MUST',
    category: 'long-poll',
    seed: 'What the service does 5',
    provenance: 'stated',
    statement: 'GET /v1/sessions/{id} with wait_ms answers as soon as the session changes, before wait_ms has passed.',
  },
  {
    id: 'POLL-002',
    level: 'MUST',
    category: 'long-poll',
    seed: 'Endpoints',
    provenance: 'stated',
    statement:
      'GET /v1/sessions/{id} with wait_ms on a session that does not change answers once wait_ms has passed, not much later.',
  },
  {
    id: 'POLL-003',
    level: 'SHOULD',
    category: 'long-poll',
    seed: 'Endpoints',
    provenance: 'designed',
    statement: 'A wait_ms above 60000 is answered 400 invalid-request.',
    references: ['docs/decisions.md › Requests and responses'],
  },
];
