/**
 * Credits (seed "What the service does" 8, "Errors", "States and transitions"): one pool per workspace,
 * sessions charged from it and visible in `GET /credits`, `402 insufficient-credits` with its three
 * fields, and the reconciliation of a cancellation in the ledger.
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const creditRequirements: readonly RequirementDefinition[] = [
  {
    id: 'CRED-001',
    level: 'MUST',
    category: 'credits',
    seed: 'What the service does 8',
    provenance: 'stated',
    statement:
      "A finished session's charge is drawn from the workspace's one pool: GET /credits lists entries for the session that add up to its credits_charged, and the balance falls by what the new entries say.",
    references: ['docs/decisions.md › Sessions'],
  },
  {
    id: 'CRED-002',
    level: 'MUST',
    category: 'credits',
    seed: 'Errors',
    provenance: 'stated',
    statement:
      'A start whose estimate exceeds the balance is answered 402 insufficient-credits with integer session_estimate_credits above integer balance_credits and a topup_url, and starts nothing.',
  },
  {
    id: 'CRED-003',
    level: 'MUST',
    category: 'credits',
    seed: 'States and transitions',
    provenance: 'stated',
    statement:
      "A cancellation's reconciliation is visible in the ledger: the session's entries add up to minus its credits_charged, the refund of credits_refunded among them.",
  },
  {
    id: 'CRED-004',
    level: 'MUST',
    category: 'credits',
    seed: 'What the service does 8',
    provenance: 'stated',
    statement:
      'API calls carry no per-call surcharge: reads change the balance by nothing but what the ledger lists, and add no entry of their own.',
  },
  {
    id: 'CRED-005',
    level: 'MUST',
    category: 'credits',
    seed: 'Events › Event types and data',
    provenance: 'stated',
    statement:
      "session.cancelled reports the reconciliation the ledger shows: credits_charged is what the session's entries drew, and credits_refunded the refund among them.",
  },
];
