/**
 * Faults in the event stream (seed "Streaming", WHATWG HTML §9.2): another media type, data that is not
 * JSON, ids that restart, an event lost on resume, a completion without its outcomes URL, no `retry:`,
 * `finite` ignored.
 * @module
 */
import { eventOf, is } from './exchange-edits.js';
import type { Fault } from './types.js';

const eventsPath = /^\/v1\/sessions\/[^/]+\/events$/;

export const eventStreamFaults: Fault[] = [
  {
    name: 'sse-failure-as-complete',
    breaks: ['SSE-009'],
    // A failed run's stream ends as if the run had finished.
    event: (_, block) =>
      eventOf(block) === 'session.failed'
        ? block.replace(/^event: ?session\.failed$/m, 'event: session.complete')
        : block,
  },
  {
    name: 'sse-cancel-as-complete',
    breaks: ['SSE-008'],
    // A cancelled run's stream ends as if the run had finished.
    event: (_, block) =>
      eventOf(block) === 'session.cancelled'
        ? block.replace(/^event: ?session\.cancelled$/m, 'event: session.complete')
        : block,
  },
  {
    name: 'sse-drop-on-resume',
    breaks: ['SSE-004'],
    event: (request, block, index) => (request.headers['last-event-id'] !== undefined && index === 0 ? '' : block),
  },
  {
    name: 'sse-not-event-stream',
    breaks: ['SSE-001'],
    response: (request, response) =>
      is(request, 'GET', eventsPath) ? void (response.headers['content-type'] = 'text/plain') : undefined,
  },
  {
    name: 'sse-data-not-json',
    breaks: ['SSE-002'],
    event: (_, block) =>
      eventOf(block) === 'round.complete' ? block.replace(/^data: ?.*$/m, 'data: round done') : block,
  },
  { name: 'sse-ids-restart', breaks: ['SSE-003'], event: (_, block) => block.replace(/^id: ?\d+$/m, 'id: 1') },
  {
    name: 'sse-no-outcomes-url',
    breaks: ['SSE-005'],
    event: (_, block) => (eventOf(block) === 'session.complete' ? block.replace(/^data: ?.*$/m, 'data: {}') : block),
  },
  { name: 'sse-no-retry', breaks: ['SSE-006'], event: (_, block) => block.replace(/^retry: ?\d+\n/m, '') },
  {
    name: 'sse-finite-ignored',
    breaks: ['SSE-007'],
    request: (request) => void request.url.searchParams.delete('finite'),
  },
];
