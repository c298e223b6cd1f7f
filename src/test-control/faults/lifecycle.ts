/**
 * Faults in the session lifecycle (seed "Sessions"): unpublished variants, memo values out of range,
 * outcomes, continuing, forking, cancelling, archiving and deleting done otherwise, conflicts answered
 * as successes, line-ups not checked.
 * @module
 */
import { ProblemError } from '../../server/core/problems.js';
import { answerJson, editJson, editRequestJson, is, unchanged } from './exchange-edits.js';
import type { Fault } from './types.js';

const sessionPath = /^\/v1\/sessions\/[^/]+$/;

/** Changes the body of a session read. */
function editSession(edit: (session: Record<string, unknown>) => void): Fault['response'] {
  return (request, response) => (is(request, 'GET', sessionPath) ? editJson(response, edit) : undefined);
}

const refuse =
  (method: string, path: RegExp, detail: string): Fault['answer'] =>
  (request) =>
    is(request, method, path) ? new ProblemError(409, detail) : undefined;

export const lifecycleFaults: Fault[] = [
  {
    name: 'start-unpublished-variant',
    breaks: ['LIFE-001', 'LIFE-002'],
    // Unknown members are allowed; an A2 that also carries `session_id` is no published variant, and a B
    // without `task_id` is A1, which the reference profile does not allow for a brief.
    response: (request, response) =>
      is(request, 'POST', /^\/v1\/sessions$/) && response.status === 202
        ? editJson(response, (body) => {
            body['session_id'] ??= body['id'];
            delete body['task_id'];
          })
        : undefined,
  },
  {
    name: 'memo-confidence-out-of-range',
    breaks: ['LIFE-003'],
    response: editSession((body) => {
      if (body['memo'] !== null && body['memo'] !== undefined) {
        (body['memo'] as Record<string, unknown>)['confidence_0_100'] = 150;
      }
    }),
  },
  { name: 'outcomes-unavailable', breaks: ['LIFE-004'], answer: refuse('GET', /\/outcomes$/, 'Not complete.') },
  { name: 'continue-refused', breaks: ['LIFE-005'], answer: refuse('POST', /\/continue$/, 'Cannot continue.') },
  { name: 'fork-forgets-source', breaks: ['LIFE-006'], response: editSession((body) => (body['forked_from'] = null)) },
  {
    name: 'cancel-not-reconciled',
    breaks: ['LIFE-007'],
    response: editSession((body) => (body['status'] === 'cancelled' ? delete body['credits_refunded'] : undefined)),
  },
  {
    name: 'cancel-no-refund',
    breaks: ['LIFE-008'],
    response: editSession((body) => (body['status'] === 'cancelled' ? (body['credits_refunded'] = 0) : undefined)),
  },
  { name: 'archive-refused', breaks: ['LIFE-009'], answer: refuse('POST', /\/archive$/, 'Cannot archive.') },
  {
    name: 'delete-returns-200',
    breaks: ['LIFE-010'],
    response: (request, response) =>
      request.method === 'DELETE' && response.status === 204
        ? answerJson(response, 200, '{"deleted":true}')
        : undefined,
  },
  {
    name: 'conflict-as-200',
    breaks: ['LIFE-011'],
    response: (_, response) => (response.status === 409 ? answerJson(response, 200, '{}') : undefined),
  },
  {
    name: 'lineup-unchecked',
    breaks: ['LIFE-012'],
    answer(request) {
      if (!is(request, 'POST', /^\/v1\/sessions$/)) {
        return undefined;
      }
      editRequestJson(request, (json) =>
        Array.isArray(json['synths']) && (json['synths'].length < 2 || json['synths'].length > 12)
          ? (json['synths'] = ['cfo', 'skeptic', 'growth_lead'])
          : unchanged,
      );
      return undefined;
    },
  },
];
