/**
 * Faults in the contract's shapes (seed "What the service does"): an undocumented status or media type,
 * a malformed header, a required field missing, an operation failing.
 * @module
 */
import { ProblemError } from '../../server/core/problems.js';
import { editJson, is } from './exchange-edits.js';
import type { Fault } from './types.js';

export const contractFaults: Fault[] = [
  {
    name: 'credits-answer-203',
    breaks: ['CONT-001'],
    response: (request, response) =>
      is(request, 'GET', /^\/credits$/) && response.status === 200 ? void (response.status = 203) : undefined,
  },
  {
    name: 'synths-as-text',
    breaks: ['CONT-002'],
    response: (request, response) =>
      request.url.pathname === '/synths' ? void (response.headers['content-type'] = 'text/plain') : undefined,
  },
  {
    name: 'ratelimit-header-malformed',
    breaks: ['CONT-003'],
    response: (_, response) => void (response.headers['ratelimit'] &&= 'plenty left'),
  },
  {
    name: 'synths-without-names',
    breaks: ['CONT-004'],
    response: (request, response) =>
      is(request, 'GET', /^\/synths$/) && response.status === 200
        ? editJson(response, (body) =>
            (body['items'] as Array<Record<string, unknown>>).forEach((item) => delete item['name']),
          )
        : undefined,
  },
  {
    name: 'modes-fail',
    breaks: ['CONT-005', 'CONT-006'],
    answer: (request) =>
      is(request, 'GET', /^\/modes$/) ? new ProblemError(500, 'The modes are unavailable.') : undefined,
  },
];
