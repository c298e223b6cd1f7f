/**
 * Plan previews and staffed boards (seed "What the service does" 2 and 4: "preview a plan and credit
 * estimate before running", a decision brief whose board the service staffs; "Endpoints":
 * `POST /sessions/plan`, `/sessions/{id}/plan`).
 * @module
 */
import type { Requirement } from './types.js';

export const planRequirements: readonly Requirement[] = [
  {
    id: 'PLAN-001',
    level: 'MUST',
    category: 'plans',
    seed: 'Endpoints',
    provenance: 'stated',
    statement: 'POST /v1/sessions/plan previews the staffed board (the requested Synths) and an integer credit estimate.',
    checks: ['plans.preview'],
  },
  {
    id: 'PLAN-002',
    level: 'SHOULD',
    category: 'plans',
    seed: 'What the service does 8',
    provenance: 'designed',
    statement: "A start of the request a plan previewed is estimated at the plan's credits.",
    checks: ['plans.preview'],
    references: ['openapi/components/schemas/CreditEstimate.yaml'],
  },
  {
    id: 'PLAN-003',
    level: 'MUST',
    category: 'plans',
    seed: 'Endpoints › Paths with purpose given',
    provenance: 'stated',
    statement: "GET /v1/sessions/{id}/plan returns the session's pre-flight plan: its board and the estimate it started with.",
    checks: ['plans.session-plan'],
  },
  {
    id: 'PLAN-004',
    level: 'MUST',
    category: 'plans',
    seed: 'What the service does 2',
    provenance: 'variant',
    statement: 'A decision-brief start gets a board of 2 to 12 Synths staffed by the service (decision_brief.staffed_by service).',
    checks: ['plans.brief-staffing'],
  },
];
