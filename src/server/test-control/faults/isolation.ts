/**
 * Faults in workspace isolation (seed "Workspaces"): workspace B's key reads, or does everything, as
 * workspace A.
 * @module
 */
import { keyOf, useKeyA } from './exchange-edits.js';
import type { Fault } from './types.js';

const sessionPath = /^\/v1\/sessions\/[^/]+/;

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
];
