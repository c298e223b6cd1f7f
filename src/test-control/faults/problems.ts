/**
 * Faults in problem details (RFC 9457, seed "Errors"): the wrong media type, status, type or title, a
 * stack trace, validation answered without pointers or with another status, unknown paths and methods
 * answered otherwise.
 * @module
 */
import { answerJson, editJson, isProblem, problemType } from './exchange-edits.js';
import type { Fault, FaultResponse, FaultState } from './types.js';

function rewriteProblem(response: FaultResponse, state: FaultState, status: number, slug: string): void {
  response.status = status;
  editJson(response, (body) => {
    body['status'] = status;
    body['type'] = problemType(state, slug);
  });
}

export const problemFaults: Fault[] = [
  {
    name: 'problem-as-json',
    breaks: ['PROB-001'],
    response: (_, response) =>
      isProblem(response) ? void (response.headers['content-type'] = 'application/json') : undefined,
  },
  {
    name: 'problem-status-mismatch',
    breaks: ['PROB-002'],
    response: (_, response) =>
      isProblem(response) ? editJson(response, (body) => (body['status'] = response.status + 1)) : undefined,
  },
  {
    name: 'problem-wrong-slug',
    breaks: ['PROB-003'],
    response: (_, response, state) =>
      isProblem(response) ? editJson(response, (body) => (body['type'] = problemType(state, 'error'))) : undefined,
  },
  {
    name: 'problem-stack-trace',
    breaks: ['PROB-004'],
    response: (_, response) =>
      isProblem(response)
        ? editJson(
            response,
            (body) => (body['detail'] = `${String(body['detail'])}\n    at handle (/srv/app/lib/server.js:42:17)`),
          )
        : undefined,
  },
  {
    name: 'problem-title-varies',
    breaks: ['PROB-005'],
    response: (request, response) =>
      isProblem(response)
        ? editJson(response, (body) => (body['title'] = `${String(body['title'])} at ${request.url.pathname}`))
        : undefined,
  },
  {
    name: 'invalid-as-422',
    breaks: ['PROB-006', 'PROB-008', 'PROB-013'],
    response: (_, response, state) =>
      response.status === 400 ? rewriteProblem(response, state, 422, 'unprocessable') : undefined,
  },
  {
    name: 'invalid-without-pointers',
    breaks: ['PROB-007'],
    response: (_, response) =>
      response.status === 400 ? editJson(response, (body) => delete body['errors']) : undefined,
  },
  {
    name: 'media-type-as-400',
    breaks: ['PROB-009'],
    response: (_, response, state) =>
      response.status === 415 ? rewriteProblem(response, state, 400, 'invalid-request') : undefined,
  },
  {
    name: 'too-large-as-400',
    breaks: ['PROB-010'],
    response: (_, response, state) =>
      response.status === 413 ? rewriteProblem(response, state, 400, 'invalid-request') : undefined,
  },
  {
    name: 'unknown-path-found',
    breaks: ['PROB-011'],
    response: (request, response) =>
      response.status === 404 && request.route === undefined ? answerJson(response, 200, '{}') : undefined,
  },
  {
    name: 'no-allow-header',
    breaks: ['PROB-012'],
    response: (_, response) => void delete response.headers['allow'],
  },
  {
    name: 'not-found-as-403',
    breaks: ['PROB-014'],
    response: (_, response, state) =>
      response.status === 404 ? rewriteProblem(response, state, 403, 'tier-required') : undefined,
  },
];
