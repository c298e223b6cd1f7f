/**
 * Tiers (seed "What the service does" 7, "Authentication" 10; the service's pricing page for the Synth
 * caps), tested with keys of other tiers that the test control provisions.
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const tierRequirements: readonly RequirementDefinition[] = [
  {
    id: 'TIER-001',
    level: 'MUST',
    category: 'tiers',
    seed: 'Authentication 10',
    provenance: 'stated',
    statement:
      'A key of a workspace on a tier below Ultra is answered 403 tier-required by the API, which is available on the Ultra tier and Enterprise contracts.',
    references: ['What the service does 7'],
  },
  {
    id: 'TIER-002',
    level: 'SHOULD',
    category: 'tiers',
    seed: 'Limits',
    provenance: 'variant',
    statement:
      "A lineup above the Synth cap of the key's tier (Free 3, Pro 5, Max 8, Ultra 12) is answered 403 tier-required, and one at the Ultra cap of 12 runs.",
    references: ['The published pricing page: Synths per session by tier'],
  },
  {
    id: 'TIER-003',
    level: 'SHOULD',
    category: 'tiers',
    seed: 'What the service does 7',
    provenance: 'designed',
    statement: "GET /credits names the workspace's tier, Ultra or Enterprise for a key the API serves.",
    references: ['docs/decisions.md › Chat, actions, catalogue and credits'],
  },
];
