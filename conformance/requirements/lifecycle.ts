/**
 * The session lifecycle (seed "What the service does", "States and transitions", "Endpoints"; the
 * transitions are drawn in docs/session-lifecycle.md).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const lifecycleRequirements: readonly RequirementDefinition[] = [
  {
    id: 'LIFE-001',
    level: 'MUST',
    category: 'lifecycle',
    seed: 'Resources and their fields › Session start request (variant A)',
    provenance: 'variant',
    statement:
      'A board-lineup start (request variant A) is accepted with a published start response (A1, A2 or B, as the profile allows).',
  },
  {
    id: 'LIFE-002',
    level: 'MUST',
    category: 'lifecycle',
    seed: 'Resources and their fields › Session start request (variant B)',
    provenance: 'variant',
    statement:
      'A decision-brief start (request variant B) is accepted with a published start response, as the profile allows.',
  },
  {
    id: 'LIFE-003',
    level: 'MUST',
    category: 'lifecycle',
    seed: 'Resources and their fields › Session read response',
    provenance: 'stated',
    statement:
      'A started session runs to status complete with v4_phase done and a memo holding a verdict and a confidence from 0 to 100.',
  },
  {
    id: 'LIFE-004',
    level: 'MUST',
    category: 'lifecycle',
    seed: 'Endpoints',
    provenance: 'stated',
    statement: 'GET /v1/sessions/{id}/outcomes returns the final synthesis once the session is complete.',
  },
  {
    id: 'LIFE-005',
    level: 'SHOULD',
    category: 'lifecycle',
    seed: 'Events › Event types and data',
    provenance: 'designed',
    statement: 'Continuing a complete session runs follow-up rounds numbered on from the last and completes again.',
    references: ['docs/session-lifecycle.md'],
  },
  {
    id: 'LIFE-006',
    level: 'SHOULD',
    category: 'lifecycle',
    seed: 'Endpoints',
    provenance: 'stated',
    statement:
      'Forking a session creates a new session with the altered context that records the session it came from.',
  },
  {
    id: 'LIFE-007',
    level: 'MUST',
    category: 'lifecycle',
    seed: 'States and transitions',
    provenance: 'stated',
    statement:
      'Cancelling a running session ends it as cancelled with its credits reconciled into charged and refunded amounts.',
  },
  {
    id: 'LIFE-008',
    level: 'SHOULD',
    category: 'lifecycle',
    seed: 'States and transitions',
    provenance: 'designed',
    statement: 'The credits charged and refunded on cancellation add up to the estimate.',
    references: ['docs/decisions.md › Session operations'],
  },
  {
    id: 'LIFE-009',
    level: 'SHOULD',
    category: 'lifecycle',
    seed: 'What the service does 4',
    provenance: 'designed',
    statement: 'Archiving a finished session marks it archived and keeps it readable.',
  },
  {
    id: 'LIFE-010',
    level: 'MUST',
    category: 'lifecycle',
    seed: 'Endpoints',
    provenance: 'stated',
    statement: 'Deleting a session answers 204, and the session is 404 afterwards.',
  },
  {
    id: 'LIFE-011',
    level: 'MUST',
    category: 'lifecycle',
    seed: 'Errors › Error catalog',
    provenance: 'stated',
    statement:
      'An operation the session state does not allow (continue while running, cancel when complete) is answered 409 conflict.',
    references: ['docs/session-lifecycle.md'],
  },
  {
    id: 'LIFE-012',
    level: 'MUST',
    category: 'lifecycle',
    seed: 'Limits',
    provenance: 'stated',
    statement: 'A lineup of fewer than 2 or more than 12 Synths is answered 400 invalid-request.',
  },
  {
    id: 'LIFE-013',
    level: 'SHOULD',
    category: 'lifecycle',
    seed: 'Endpoints',
    provenance: 'designed',
    statement:
      'PATCH /v1/sessions/{id} sets the title and the metadata keys it names, and a read of the session shows them.',
    references: ['docs/decisions.md › Session operations'],
  },
  {
    id: 'LIFE-014',
    level: 'SHOULD',
    category: 'lifecycle',
    seed: 'Endpoints',
    provenance: 'designed',
    statement:
      'A metadata update merges key by key: a key set to null is removed and the keys it does not name are kept.',
    references: ['docs/decisions.md › Sessions'],
  },
];
