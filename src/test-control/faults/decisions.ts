/**
 * Faults in explicit decisions (seed "What the service does" 4, "Endpoints"): the decision's text lost,
 * the list empty, `decision.captured` never sent.
 * @module
 */
import { editJson, is } from './exchange-edits.js';
import type { Fault } from './types.js';
import { withhold } from './withheld-events.js';

const decisionsPath = /^\/v1\/sessions\/[^/]+\/decisions$/;

export const decisionFaults: Fault[] = [
  {
    name: 'decision-text-dropped',
    breaks: ['DEC-001'],
    response: (request, response) =>
      is(request, 'POST', decisionsPath) && response.status === 201
        ? editJson(response, (body) => (body['decision'] = ''))
        : undefined,
  },
  {
    name: 'decisions-not-listed',
    breaks: ['DEC-002'],
    response: (request, response) =>
      is(request, 'GET', decisionsPath) && response.status === 200
        ? editJson(response, (body) => ((body['items'] = []), (body['next_cursor'] = null)))
        : undefined,
  },
  { name: 'decision-captured-withheld', breaks: ['DEC-003'], delivery: withhold('decision.captured') },
];
