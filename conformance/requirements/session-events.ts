/**
 * The session's own webhook events (seed "Events › Event types and data", "States and transitions"):
 * created, continued, reconvened and failed, and reconvening a decided session. The event lists differ
 * between the published variants, so a subscription the deployment refuses for its event skips.
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const sessionEventRequirements: readonly RequirementDefinition[] = [
  {
    id: 'SEVT-001',
    level: 'MUST',
    category: 'session-events',
    seed: 'Events › Event types and data',
    provenance: 'variant',
    statement:
      'Where the deployment takes subscriptions to session.created (event list variants 3 and 4 name it), starting a session delivers session.created naming it.',
  },
  {
    id: 'SEVT-002',
    level: 'MUST',
    category: 'session-events',
    seed: 'Events › Event types and data',
    provenance: 'variant',
    statement:
      'Where the deployment takes subscriptions to session.continued (event list variants 1 and 2 name it), a follow-up round delivers it with the session_id and the round_number of the new round.',
  },
  {
    id: 'SEVT-003',
    level: 'MUST',
    category: 'session-events',
    seed: 'States and transitions',
    provenance: 'stated',
    statement:
      'Reconvening a decided session creates a new round session that names the session it came from and runs to its end.',
  },
  {
    id: 'SEVT-004',
    level: 'MUST',
    category: 'session-events',
    seed: 'Events › Event types and data',
    provenance: 'variant',
    statement:
      'Where the deployment takes subscriptions to session.reconvened (event list variant 1 names it), reconvening delivers it with the new session_id, the source_session_id and the round_number.',
  },
  {
    id: 'SEVT-005',
    level: 'MUST',
    category: 'session-events',
    seed: 'Events › Event types and data',
    provenance: 'variant',
    statement:
      'A session that errors mid-run ends failed and, where the deployment takes subscriptions to session.failed (event list variants 1 and 2 name it), delivers it with the session_id, an error_code and an error_message.',
    references: ['docs/simulator.md › Failure markers'],
  },
];
