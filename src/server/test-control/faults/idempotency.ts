/**
 * Faults in idempotent writes (seed "Idempotency"): the key is refused, ignored, not checked against the
 * body, raced, shared across workspaces, not announced on a replay, or forgotten too soon.
 * @module
 */
import { ProblemError } from '../../problems.js';
import type { Fault, FaultResponse } from './types.js';

/** How late `idempotency-race` records a key, in real milliseconds. */
const recordingLagMs = 1_000;

const copyOf = (response: FaultResponse): FaultResponse => ({ ...response, headers: { ...response.headers } });

export const idempotencyFaults: Fault[] = [
  {
    name: 'idempotency-key-refused',
    breaks: ['IDEM-001'],
    answer: (request) => (request.headers['idempotency-key'] === undefined ? undefined : new ProblemError(400, 'Idempotency-Key is not accepted.')),
  },
  {
    name: 'idempotency-ignore-key',
    breaks: ['IDEM-002'],
    request: (request) => void delete request.headers['idempotency-key'],
  },
  {
    name: 'idempotency-no-conflict',
    breaks: ['IDEM-003'],
    // A conflicting reuse is answered with the first response, as if the body were the same.
    answer: (request, state) => {
      const key = request.headers['idempotency-key'];
      return key === undefined ? undefined : (state.memory.get(`first ${key}`) as FaultResponse | undefined);
    },
    response(request, response, state) {
      const key = request.headers['idempotency-key'];
      if (key !== undefined && response.status < 300 && !state.memory.has(`first ${key}`)) {
        state.memory.set(`first ${key}`, copyOf(response));
      }
    },
  },
  {
    name: 'idempotency-race',
    breaks: ['IDEM-004'],
    // A key is recorded a second late (as from a lagging replica), so duplicates sent together are each
    // processed anew, without their key; a retry after that second still replays.
    request(request, state) {
      const key = request.headers['idempotency-key'];
      if (key === undefined) {
        return;
      }
      const firstSeen = state.memory.get(`first seen ${key}`) as number | undefined;
      if (firstSeen === undefined) {
        state.memory.set(`first seen ${key}`, performance.now());
      } else if (performance.now() - firstSeen < recordingLagMs) {
        delete request.headers['idempotency-key'];
      }
    },
  },
  {
    name: 'idempotency-global-keys',
    breaks: ['IDEM-005'],
    answer: (request, state) => {
      const key = request.headers['idempotency-key'];
      return key === undefined ? undefined : (state.memory.get(`global ${key}`) as FaultResponse | undefined);
    },
    response(request, response, state) {
      const key = request.headers['idempotency-key'];
      if (key !== undefined && response.status < 300) {
        state.memory.set(`global ${key}`, copyOf(response));
      }
    },
  },
  {
    name: 'idempotency-no-replay-header',
    breaks: ['IDEM-006'],
    response: (_, response) => void delete response.headers['idempotent-replayed'],
  },
  {
    name: 'idempotency-short-window',
    breaks: ['IDEM-007'],
    request(request, state) {
      const key = request.headers['idempotency-key'];
      if (key !== undefined) {
        const first = (state.memory.get(`seen ${key}`) as number | undefined) ?? state.clock.now();
        state.memory.set(`seen ${key}`, first);
        if (state.clock.now() - first > 3_600_000) {
          delete request.headers['idempotency-key'];
        }
      }
    },
  },
];
