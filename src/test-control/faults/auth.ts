/**
 * Faults in authentication (seed "Authentication"): keys that should be refused are taken, the health
 * probe demands one, the challenge goes missing.
 * @module
 */
import { ProblemError } from '../../server/core/problems.js';
import { is, keyOf, useKeyA } from './exchange-edits.js';
import type { Fault } from './types.js';

export const authFaults: Fault[] = [
  {
    name: 'auth-accept-missing-token',
    breaks: ['AUTH-001'],
    request(request, state) {
      if (request.headers['authorization'] === undefined) {
        useKeyA(request, state);
      }
    },
  },
  {
    name: 'auth-accept-any-key',
    breaks: ['AUTH-002'],
    request(request, state) {
      if (/^Bearer /.test(request.headers['authorization'] ?? '') && keyOf(request, state) === undefined) {
        useKeyA(request, state);
      }
    },
  },
  {
    name: 'auth-accept-other-schemes',
    breaks: ['AUTH-003'],
    request(request, state) {
      const value = request.headers['authorization'];
      if (value !== undefined && !/^bearer /i.test(value)) {
        useKeyA(request, state);
      }
    },
  },
  {
    name: 'health-requires-token',
    breaks: ['AUTH-004'],
    answer: (request) =>
      is(request, 'GET', /^\/v1\/health$/) && request.headers['authorization'] === undefined
        ? new ProblemError(401, 'A key is required.')
        : undefined,
  },
  {
    name: 'auth-no-challenge',
    breaks: ['AUTH-006'],
    response: (_, response) => void delete response.headers['www-authenticate'],
  },
  {
    name: 'auth-scheme-case-sensitive',
    breaks: ['AUTH-007'],
    request(request) {
      if (/^(bearer|BEARER) /.test(request.headers['authorization'] ?? '')) {
        delete request.headers['authorization'];
      }
    },
  },
];
