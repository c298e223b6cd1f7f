/**
 * The consult session type and its MCP tool (seed "What the service does" 4, 6, 8; "Resources and their
 * fields › Session start request (variant B)"): one named expert, turn by turn over MCP Streamable HTTP,
 * each turn billed from the one pool, and each workspace's sessions out of the others' reach.
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const consultRequirements: readonly RequirementDefinition[] = [
  {
    id: 'CONS-001',
    level: 'MUST',
    category: 'consult',
    seed: 'Resources and their fields › Session start request (variant B)',
    provenance: 'stated',
    statement:
      'A start with session_type consult and a synth_id is accepted, and the session reads as a consult with that named expert.',
  },
  {
    id: 'CONS-002',
    level: 'MUST',
    category: 'consult',
    seed: 'What the service does 6',
    provenance: 'stated',
    statement:
      "The MCP tool service.consult.message, offered over MCP Streamable HTTP at {base_url}/mcp, answers each turn of a consult session with the expert's reply, turn by turn.",
    references: ['MCP 2025-06-18 › Transports › Streamable HTTP'],
  },
  {
    id: 'CONS-003',
    level: 'MUST',
    category: 'consult',
    seed: 'What the service does 6',
    provenance: 'stated',
    statement:
      "Each consult turn is billed: it reports the credits it cost, and the pool's ledger lists one entry per turn for the session that adds up to them.",
    references: ['What the service does 8'],
  },
  {
    id: 'CONS-004',
    level: 'MUST',
    category: 'consult',
    seed: 'Authentication 3',
    provenance: 'stated',
    statement:
      'Over MCP, a key of another workspace cannot take a turn in a consult session: the tool answers an error and records no turn.',
  },
  {
    id: 'CONS-005',
    level: 'SHOULD',
    category: 'consult',
    seed: 'Authentication 10',
    provenance: 'designed',
    statement:
      'The MCP endpoint answers a request without a valid bearer key with a 401 unauthorized problem, as the API does.',
    references: ["the contract's x-mcp-tools endpoint"],
  },
];
