/**
 * Outcome documents (seed "Endpoints": `POST …/outcomes` "generates an action plan, report or memo.
 * Triggers the outcomes.ready event"; `GET …/outcomes` "returns the final synthesis once status is
 * complete").
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const outcomeRequirements: readonly RequirementDefinition[] = [
  {
    id: 'OUT-001',
    level: 'MUST',
    category: 'outcomes',
    seed: 'Endpoints',
    provenance: 'stated',
    statement:
      'Generating an action plan, a report and a memo of a complete session is accepted, and each becomes ready with its content in GET /v1/sessions/{id}/outcomes.',
  },
  {
    id: 'OUT-002',
    level: 'MUST',
    category: 'outcomes',
    seed: 'Endpoints',
    provenance: 'stated',
    statement: 'A generated outcome triggers outcomes.ready with its session, format and outcome id.',
  },
  {
    id: 'OUT-003',
    level: 'MUST',
    category: 'outcomes',
    seed: 'Endpoints',
    provenance: 'designed',
    statement: 'Reading or generating the outcomes of a session that has not completed is answered 409 conflict.',
  },
];
