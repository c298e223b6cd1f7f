/**
 * Actions (seed "What the service does" 4 and "Endpoints": `POST /actions/execute` runs a board
 * recommendation through a connected tool "with explicit approval"; "States and transitions": an
 * execution can be undone; event list variants 3 and 4: `action.executed`, `action.undone`).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const actionRequirements: readonly RequirementDefinition[] = [
  {
    id: 'ACT-001',
    level: 'MUST',
    category: 'actions',
    seed: 'Endpoints',
    provenance: 'stated',
    statement: 'An execution without explicit approval (none, or approved false) is refused with 400 invalid-request.',
  },
  {
    id: 'ACT-002',
    level: 'MUST',
    category: 'actions',
    seed: 'Endpoints',
    provenance: 'stated',
    statement:
      "An approved execution of a complete session's recommendation through a connected tool is recorded executed with the tool's result.",
  },
  {
    id: 'ACT-003',
    level: 'MUST',
    category: 'actions',
    seed: 'States and transitions',
    provenance: 'designed',
    statement: 'Undoing an executed action marks it undone with undone_at, and undoing it again is 409 conflict.',
  },
  {
    id: 'ACT-004',
    level: 'SHOULD',
    category: 'actions',
    seed: 'Events › Event types and data',
    provenance: 'variant',
    statement:
      'An approved execution emits action.executed, and a refused one emits nothing (event list variants 3 and 4).',
  },
  {
    id: 'ACT-005',
    level: 'SHOULD',
    category: 'actions',
    seed: 'Events › Event types and data',
    provenance: 'variant',
    statement: 'Undoing an action emits action.undone naming it (event list variants 3 and 4).',
  },
  {
    id: 'ACT-006',
    level: 'MUST',
    category: 'actions',
    seed: 'Errors › Error catalog',
    provenance: 'designed',
    statement:
      'An approved execution for a session that has not completed, or through an integration that is not connected, is 409 conflict.',
  },
];
