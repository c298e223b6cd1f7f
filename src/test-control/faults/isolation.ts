/**
 * Faults in workspace isolation (seed "Workspaces"): workspace B's key reads, or does everything, or one
 * kind of operation, as workspace A.
 * @module
 */
import { keyOf, useKeyA } from './exchange-edits.js';
import type { Fault } from './types.js';

const sessionPath = /^\/v1\/sessions\/[^/]+/;

/** A fault that serves workspace B's requests matching `path` (any method) as workspace A's. */
function servedAsA(name: string, breaks: string[], path: RegExp): Fault {
  return {
    name,
    breaks,
    request(request, state) {
      if (path.test(request.url.pathname) && keyOf(request, state) === 'b') {
        useKeyA(request, state);
      }
    },
  };
}

export const isolationFaults: Fault[] = [
  {
    name: 'leak-other-workspace',
    breaks: ['ISO-001'],
    request(request, state) {
      if (request.method === 'GET' && sessionPath.test(request.url.pathname) && keyOf(request, state) === 'b') {
        useKeyA(request, state);
      }
    },
  },
  {
    name: 'isolation-off',
    breaks: ['ISO-002', 'ISO-003', 'ISO-004', 'ISO-005', 'ISO-006', 'ISO-007'],
    request(request, state) {
      if (keyOf(request, state) === 'b') {
        useKeyA(request, state);
      }
    },
  },
  servedAsA('isolation-off-actions', ['ISO-008'], /^\/v1\/actions\//),
  servedAsA('credits-pooled-across-workspaces', ['ISO-009'], /^\/(v1\/)?credits$/),
  servedAsA(
    'isolation-off-session-operations',
    ['ISO-010'],
    /^\/v1\/sessions\/[^/]+\/(outcomes|exports|reconvene|shares\/[^/]+\/revoke)$/,
  ),
];
