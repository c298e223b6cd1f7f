/**
 * Faults in the live summary stream (seed "Events › Server-sent event stream of a session"): another
 * media type, a round's update lost, Last-Event-ID ignored.
 * @module
 */
import { eventOf, is } from './exchange-edits.js';
import type { Fault, FaultRequest } from './types.js';

const summaryPath = /^\/v1\/sessions\/[^/]+\/summary$/;
const isSummary = (request: FaultRequest): boolean => is(request, 'GET', summaryPath);

export const summaryStreamFaults: Fault[] = [
  {
    name: 'summary-not-event-stream',
    breaks: ['SUMM-001'],
    response: (request, response) =>
      isSummary(request) ? void (response.headers['content-type'] = 'text/plain') : undefined,
  },
  {
    name: 'summary-first-round-lost',
    breaks: ['SUMM-002'],
    event: (request, block) =>
      isSummary(request) && eventOf(block) === 'summary.update' && /"round":1[,}]/.test(block) ? '' : block,
  },
  {
    name: 'summary-resume-replays-all',
    breaks: ['SUMM-003'],
    request: (request) => (isSummary(request) ? void delete request.headers['last-event-id'] : undefined),
  },
];
