/**
 * Messages into a running session (seed "What the service does" 4: "send messages into a running
 * session, including sending specific Synths back to debate"; "Endpoints": `/sessions/{id}/messages`).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const messageRequirements: readonly RequirementDefinition[] = [
  {
    id: 'MSG-001',
    level: 'MUST',
    category: 'messages',
    seed: 'What the service does 4',
    provenance: 'stated',
    statement:
      'A message sent into a running session is accepted (202) and names the round of the session that takes it up.',
  },
  {
    id: 'MSG-002',
    level: 'MUST',
    category: 'messages',
    seed: 'What the service does 4',
    provenance: 'stated',
    statement:
      "Synths sent back to debate a message speak once more than the rounds alone would have them, in the message's round or after it.",
  },
  {
    id: 'MSG-003',
    level: 'MUST',
    category: 'messages',
    seed: 'Errors › Error catalog',
    provenance: 'designed',
    statement: 'A message into a session that is no longer running is answered 409 conflict.',
    references: ['docs/session-lifecycle.md'],
  },
  {
    id: 'MSG-004',
    level: 'MUST',
    category: 'messages',
    seed: 'Errors › Error catalog',
    provenance: 'designed',
    statement:
      "A message into a running session that sends back a Synth who is not on the session's board is answered 409 conflict.",
    references: ['openapi/components/schemas/SendMessageRequest.yaml'],
  },
];
