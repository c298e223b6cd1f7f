/**
 * The session event stream (seed "Events › Server-sent event stream of a session"; WHATWG HTML §9.2).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const sseRequirements: readonly RequirementDefinition[] = [
  {
    id: 'SSE-001',
    level: 'MUST',
    category: 'sse',
    seed: 'Events › Server-sent event stream of a session',
    provenance: 'stated',
    statement: 'GET /v1/sessions/{id}/events is a text/event-stream whose event names are those the contract lists.',
  },
  {
    id: 'SSE-002',
    level: 'MUST',
    category: 'sse',
    seed: 'Events › Server-sent event stream of a session',
    provenance: 'stated',
    statement: "Every event's data is one JSON object that validates against its event's data schema.",
  },
  {
    id: 'SSE-003',
    level: 'SHOULD',
    category: 'sse',
    seed: 'Events › Server-sent event stream of a session',
    provenance: 'designed',
    statement: 'Event ids are decimal and strictly increasing within a session, starting at 1.',
    references: ['docs/decisions.md › Streams'],
  },
  {
    id: 'SSE-004',
    level: 'SHOULD',
    category: 'sse',
    seed: 'Events › Server-sent event stream of a session',
    provenance: 'designed',
    statement: 'A client that reconnects with Last-Event-ID receives every later event once: none lost, none repeated.',
    references: ['WHATWG HTML §9.2.4', 'docs/decisions.md › Streams'],
  },
  {
    id: 'SSE-005',
    level: 'MUST',
    category: 'sse',
    seed: 'Events › Server-sent event stream of a session',
    provenance: 'stated',
    statement: "session.complete carries outcomes_url, and that URL answers 200 with the session's outcomes.",
  },
  {
    id: 'SSE-006',
    level: 'SHOULD',
    category: 'sse',
    seed: 'Events › Server-sent event stream of a session',
    provenance: 'designed',
    statement:
      'The first event carries a retry hint, rounds are announced in order, and the stream ends after its terminal event.',
    references: ['docs/decisions.md › Streams'],
  },
  {
    id: 'SSE-007',
    level: 'SHOULD',
    category: 'sse',
    seed: 'Events › Server-sent event stream of a session',
    provenance: 'designed',
    statement: 'With finite=true the stream sends the events recorded so far and closes.',
  },
  {
    id: 'SSE-008',
    level: 'SHOULD',
    category: 'sse',
    seed: 'Events › Server-sent event stream of a session',
    provenance: 'designed',
    statement:
      'The stream of a session cancelled mid-run ends with session.cancelled, whose data reconciles the credits charged and refunded.',
    references: ['docs/decisions.md › Streams'],
  },
  {
    id: 'SSE-009',
    level: 'SHOULD',
    category: 'sse',
    seed: 'Events › Server-sent event stream of a session',
    provenance: 'designed',
    statement:
      'The stream of a session whose run fails ends with session.failed, whose data names an error_code and an error_message.',
    references: ['docs/decisions.md › Streams'],
  },
];
