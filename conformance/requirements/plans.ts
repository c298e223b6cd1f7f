/**
 * Plan previews and staffed boards (seed "What the service does" 2 and 4: "preview a plan and credit
 * estimate before running", a decision brief whose board the service staffs; "Endpoints":
 * `POST /sessions/plan`, `/sessions/{id}/plan`).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const planRequirements: readonly RequirementDefinition[] = [
  {
    id: 'PLAN-001',
    level: 'MUST',
    category: 'plans',
    seed: 'Endpoints',
    provenance: 'stated',
    statement:
      'POST /v1/sessions/plan previews the staffed board (the requested Synths) and an integer credit estimate.',
  },
  {
    id: 'PLAN-002',
    level: 'SHOULD',
    category: 'plans',
    seed: 'What the service does 8',
    provenance: 'designed',
    statement: "A start of the request a plan previewed is estimated at the plan's credits.",
    references: ['openapi/components/schemas/CreditEstimate.yaml'],
  },
  {
    id: 'PLAN-003',
    level: 'MUST',
    category: 'plans',
    seed: 'Endpoints › Paths with purpose given',
    provenance: 'stated',
    statement:
      "GET /v1/sessions/{id}/plan returns the session's pre-flight plan: its board and the estimate it started with.",
  },
  {
    id: 'PLAN-004',
    level: 'MUST',
    category: 'plans',
    seed: 'What the service does 2',
    provenance: 'variant',
    statement:
      'A decision-brief start gets a board of 2 to 12 Synths staffed by the service (decision_brief.staffed_by service).',
  },
  {
    id: 'PLAN-005',
    level: 'MUST',
    category: 'plans',
    seed: 'Errors › Error catalog',
    provenance: 'designed',
    statement:
      "A plan made on a balance its estimate exceeds says so (sufficient_credits false, balance_credits the balance), and a start of the planned request is refused 402 at the plan's estimate.",
    references: ['openapi/components/schemas/Plan.yaml'],
  },
  {
    id: 'PLAN-006',
    level: 'MUST',
    category: 'plans',
    seed: 'What the service does 8',
    provenance: 'stated',
    statement:
      "A plan's price follows its model class: each estimate is synth_count × rounds × credits_per_synth_round at the class it names, premium costs more than standard, and the premium start is estimated at its plan's price.",
    references: ['openapi/components/schemas/CreditEstimate.yaml'],
  },
];
