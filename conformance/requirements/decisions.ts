/**
 * Explicit decisions (seed "What the service does" 4: "record explicit decisions against a session for
 * later outcome inference"; "Endpoints": `/sessions/{id}/decisions`; event list variant 4:
 * `decision.captured`).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const decisionRequirements: readonly RequirementDefinition[] = [
  {
    id: 'DEC-001',
    level: 'MUST',
    category: 'decisions',
    seed: 'Endpoints › Paths with purpose given',
    provenance: 'stated',
    statement:
      'Capturing a decision against a session answers 201 with the decision as recorded, its text and who decided.',
  },
  {
    id: 'DEC-002',
    level: 'SHOULD',
    category: 'decisions',
    seed: 'What the service does 4',
    provenance: 'designed',
    statement: "The session's decisions are listed by GET /v1/sessions/{id}/decisions, the captured ones included.",
  },
  {
    id: 'DEC-003',
    level: 'SHOULD',
    category: 'decisions',
    seed: 'Events › Event types and data',
    provenance: 'variant',
    statement:
      'Capturing a decision emits decision.captured naming the decision and its session (event list variant 4).',
  },
];
