/**
 * Faults in actions (seed "Endpoints": execution with explicit approval; "States and transitions": an
 * execution can be undone): executing without approval, approved executions not carried out, undo doing
 * nothing, `action.executed` and `action.undone` never sent, executions for a running session or through a
 * disconnected tool answered.
 * @module
 */
import { answerJson, editJson, editRequestJson, is } from './exchange-edits.js';
import type { Fault } from './types.js';
import { withhold } from './withheld-events.js';

export const actionFaults: Fault[] = [
  {
    name: 'action-approval-optional',
    breaks: ['ACT-001'],
    // Every execution runs as approved, whatever the request said.
    answer(request) {
      if (is(request, 'POST', /^\/v1\/actions\/execute$/)) {
        editRequestJson(request, (json) => (json['approval'] = { approved: true, approved_by: 'nobody asked' }));
      }
      return undefined;
    },
  },
  {
    name: 'action-not-executed',
    breaks: ['ACT-002'],
    response: (request, response) =>
      is(request, 'POST', /^\/v1\/actions\/execute$/) && response.status === 200
        ? editJson(response, (body) =>
            Object.assign(body, {
              status: 'failed',
              result: null,
              undoable: false,
              error: { code: 'tool_unavailable', message: 'The tool did not answer in time.' },
            }),
          )
        : undefined,
  },
  {
    name: 'action-undo-noop',
    breaks: ['ACT-003'],
    response: (request, response) =>
      is(request, 'POST', /^\/v1\/actions\/[^/]+\/undo$/) && response.status === 200
        ? editJson(response, (body) => Object.assign(body, { status: 'executed', undone_at: null }))
        : undefined,
  },
  { name: 'action-executed-withheld', breaks: ['ACT-004'], delivery: withhold('action.executed') },
  { name: 'action-undone-withheld', breaks: ['ACT-005'], delivery: withhold('action.undone') },
  {
    name: 'action-state-unchecked',
    breaks: ['ACT-006'],
    response: (request, response) =>
      is(request, 'POST', /^\/v1\/actions\/execute$/) && response.status === 409
        ? answerJson(response, 200, '{}')
        : undefined,
  },
];
