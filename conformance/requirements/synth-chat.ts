/**
 * 1-on-1 chat with a Synth (seed "What the service does" 4, "Endpoints": `POST /api/v1/synths/chat`). The
 * request and reply shapes, conversations and the billing per turn are the contract's design.
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const synthChatRequirements: readonly RequirementDefinition[] = [
  {
    id: 'CHAT-001',
    level: 'MUST',
    category: 'synth-chat',
    seed: 'Endpoints',
    provenance: 'stated',
    statement: 'POST /v1/synths/chat answers a message to a Synth of the library with a reply from that Synth.',
  },
  {
    id: 'CHAT-002',
    level: 'MUST',
    category: 'synth-chat',
    seed: 'Endpoints',
    provenance: 'designed',
    statement:
      'A message sent with the conversation_id of an earlier reply continues that conversation, and the id held with one Synth is 409 conflict with another.',
    references: ['openapi/paths/v1_synths_chat.yaml'],
  },
  {
    id: 'CHAT-003',
    level: 'SHOULD',
    category: 'synth-chat',
    seed: 'What the service does 8',
    provenance: 'designed',
    statement:
      "Each chat turn draws the credits_charged it reports from the workspace's one pool, as a chat entry of the ledger.",
  },
];
