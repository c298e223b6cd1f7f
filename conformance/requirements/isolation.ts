/**
 * Workspace isolation (seed "Authentication" 3: keys are scoped per workspace). Tested with a second key
 * of another workspace; the contract answers another workspace's resources as 404 (`not-found`: "belongs
 * to another workspace"), so their existence does not leak either.
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const isolationRequirements: readonly RequirementDefinition[] = [
  {
    id: 'ISO-001',
    level: 'MUST',
    category: 'isolation',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement:
      "Reading another workspace's session, its plan, outcomes, decisions, shares or export is answered 404 and shows none of its data.",
  },
  {
    id: 'ISO-002',
    level: 'MUST',
    category: 'isolation',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement: "Listing sessions never shows another workspace's sessions.",
  },
  {
    id: 'ISO-003',
    level: 'MUST',
    category: 'isolation',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement:
      "Changing another workspace's session (update, cancel, archive, delete, fork, continue, message, decision) is answered 404 and changes nothing.",
  },
  {
    id: 'ISO-004',
    level: 'MUST',
    category: 'isolation',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement: "Streaming another workspace's session events or summary is answered 404 and streams nothing.",
  },
  {
    id: 'ISO-005',
    level: 'MUST',
    category: 'isolation',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement: "Creating a share link for another workspace's session is answered 404 and creates no link.",
  },
  {
    id: 'ISO-006',
    level: 'MUST',
    category: 'isolation',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement:
      "Another workspace's webhook subscriptions and their deliveries can be neither read, listed, changed nor deleted.",
  },
  {
    id: 'ISO-007',
    level: 'MUST',
    category: 'isolation',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement: "A cursor issued to another workspace never yields that workspace's items.",
  },
  {
    id: 'ISO-008',
    level: 'MUST',
    category: 'isolation',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement:
      "Executing an action for another workspace's session, or undoing another workspace's action, is answered 404 and does nothing.",
  },
  {
    id: 'ISO-009',
    level: 'MUST',
    category: 'isolation',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement:
      "Reading the credit balance shows the workspace's own pool: another workspace's sessions appear in none of its ledger entries and move none of its balance.",
  },
  {
    id: 'ISO-010',
    level: 'MUST',
    category: 'isolation',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement:
      "Generating outcomes, exporting through /exports, reconvening, or revoking a share link of another workspace's session is answered 404 and shows none of its data.",
  },
  {
    id: 'ISO-011',
    level: 'MUST',
    category: 'isolation',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement:
      "A Synth chat turn that names another workspace's conversation_id or session_id is answered 404 and shows none of its data.",
  },
];
