/**
 * The live cross-round summary (seed "Events › Server-sent event stream of a session": "a live
 * cross-round summary is also streamed by the server"; path, events and data are the contract's design,
 * `GET /v1/sessions/{id}/summary`).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const summaryStreamRequirements: readonly RequirementDefinition[] = [
  {
    id: 'SUMM-001',
    level: 'MUST',
    category: 'summary-stream',
    seed: 'Events › Server-sent event stream of a session',
    provenance: 'stated',
    statement:
      "A session's live cross-round summary is streamed as server-sent events (text/event-stream) whose data matches the contract.",
    references: ['openapi/paths/v1_sessions_{id}_summary.yaml'],
  },
  {
    id: 'SUMM-002',
    level: 'SHOULD',
    category: 'summary-stream',
    seed: 'Events › Server-sent event stream of a session',
    provenance: 'designed',
    statement:
      'The summary stream sends a summary.update for each completed round in round order, then one summary.final, and closes.',
  },
  {
    id: 'SUMM-003',
    level: 'SHOULD',
    category: 'summary-stream',
    seed: 'Events › Server-sent event stream of a session',
    provenance: 'designed',
    statement: 'A summary stream resumed with Last-Event-ID sends every later event and none up to that id.',
    references: ['WHATWG HTML › Server-sent events'],
  },
];
