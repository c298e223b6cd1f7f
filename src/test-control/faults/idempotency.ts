/**
 * Faults in idempotent writes (seed "Idempotency"): the key is refused, ignored, not checked against the
 * body, raced, shared across workspaces, not announced on a replay, or forgotten too soon.
 * @module
 */
import { ProblemError } from '../../server/core/problems.js';
import type { Fault, FaultResponse } from './types.js';

/** How late `idempotency-race` records a key, in real milliseconds. */
const recordingLagMs = 1_000;

const copyOf = (response: FaultResponse): FaultResponse => ({ ...response, headers: { ...response.headers } });

/**
 * Remembers a successful response per Idempotency-Key alone (not per body, not per workspace) and answers
 * any later request carrying that key with it. `keep` says which success of a key is remembered: the
 * first, or the latest. `slot` keeps each fault's memory apart when several are on at once.
 */
const answerPerKey = (slot: string, keep: 'first' | 'latest'): Pick<Fault, 'answer' | 'response'> => ({
  answer: (request, state) => {
    const key = request.headers['idempotency-key'];
    return key === undefined ? undefined : (state.memory.get(`${slot} ${key}`) as FaultResponse | undefined);
  },
  response(request, response, state) {
    const key = request.headers['idempotency-key'];
    if (key !== undefined && response.status < 300 && (keep === 'latest' || !state.memory.has(`${slot} ${key}`))) {
      state.memory.set(`${slot} ${key}`, copyOf(response));
    }
  },
});

export const idempotencyFaults: Fault[] = [
  {
    name: 'idempotency-key-refused',
    breaks: ['IDEM-001'],
    answer: (request) =>
      request.headers['idempotency-key'] === undefined
        ? undefined
        : new ProblemError(400, 'Idempotency-Key is not accepted.'),
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
    ...answerPerKey('first', 'first'),
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
    // A key used in one workspace replays that workspace's response in another.
    ...answerPerKey('global', 'latest'),
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
