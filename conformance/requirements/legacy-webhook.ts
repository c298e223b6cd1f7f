/**
 * The deprecated per-key webhook (seed "Events › Legacy per-key webhook (deprecated)"; "Authentication"
 * 8): one URL on an API key, `session.complete` only, signed over the body alone. Tested where the target
 * has one configured on a key pointed at the suite's receiver (its test control configures one).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const legacyWebhookRequirements: readonly RequirementDefinition[] = [
  {
    id: 'LEG-001',
    level: 'MUST',
    category: 'legacy-webhook',
    seed: 'Events › Legacy per-key webhook (deprecated)',
    provenance: 'stated',
    statement:
      'When a session started with a key that has a legacy webhook URL finishes, the URL receives session.complete with X-Mcp-Signature, X-Mcp-Event, X-Mcp-Timestamp and X-Mcp-Delivery-Id.',
  },
  {
    id: 'LEG-002',
    level: 'MUST',
    category: 'legacy-webhook',
    seed: 'Events › Legacy per-key webhook (deprecated)',
    provenance: 'stated',
    statement:
      "X-Mcp-Signature is sha256= and the hex HMAC-SHA256 of the raw body alone, with no timestamp, keyed with the key's whsec_ secret.",
  },
  {
    id: 'LEG-003',
    level: 'MUST',
    category: 'legacy-webhook',
    seed: 'Events › Legacy per-key webhook (deprecated)',
    provenance: 'stated',
    statement: 'The legacy URL fires for session.complete only: a cancelled session sends it nothing.',
  },
];
