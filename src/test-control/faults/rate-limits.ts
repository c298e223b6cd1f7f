/**
 * Faults in rate limiting (seed "Rate limits"): no 429, a Retry-After too short, one bucket for all
 * keys, headers or body that disagree.
 * @module
 */
import { editJson, keyOf, replaceWithProblem, useKeyA } from './exchange-edits.js';
import type { Fault } from './types.js';

export const rateLimitFaults: Fault[] = [
  {
    name: 'rate-limit-never',
    breaks: ['RATE-001'],
    response: (_, response, state) =>
      response.status === 429 ? replaceWithProblem(response, state, 404, 'No such session.') : undefined,
  },
  {
    // Half the wait, and the path kept limited for two seconds past the true one: whatever the moment of
    // the window the 429 came in, a client that waits what Retry-After says is refused again.
    name: 'rate-limit-short-retry-after',
    breaks: ['RATE-002'],
    response(request, response, state) {
      const key = `short-retry-after ${request.url.pathname}`;
      if (response.status === 429) {
        const seconds = Number(response.headers['retry-after']);
        state.memory.set(key, state.clock.now() + seconds * 1000 + 2000);
        response.headers['retry-after'] = String(Math.floor(seconds / 2));
        editJson(response, (body) => (body['retry_after_s'] = Math.floor(seconds / 2)));
      } else if (state.clock.now() < Number(state.memory.get(key) ?? 0)) {
        replaceWithProblem(response, state, 429, 'Rate limit exceeded.');
      }
    },
  },
  {
    name: 'rate-limit-shared-bucket',
    breaks: ['RATE-003'],
    request(request, state) {
      if (keyOf(request, state) === 'b' && /\/cancel$/.test(request.url.pathname)) {
        useKeyA(request, state);
      }
    },
  },
  {
    name: 'rate-limit-header-mismatch',
    breaks: ['RATE-004'],
    response(_, response) {
      if (response.headers['ratelimit'] !== undefined) {
        response.headers['ratelimit'] = response.headers['ratelimit'].replace(/^"[^"]+"/, '"other"');
      }
    },
  },
  {
    name: 'rate-limit-body-mismatch',
    breaks: ['RATE-005'],
    response: (_, response) =>
      response.status === 429
        ? editJson(response, (body) => (body['retry_after_s'] = Number(body['retry_after_s'] ?? 0) + 7))
        : undefined,
  },
];
