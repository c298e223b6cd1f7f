/**
 * The routes of the client-team controls under `/_controls/v1` (docs/testing.md "Client-team controls"):
 * the journal, the queued faults, a session's state, the clock and a reset. Outside the contract; bad input
 * is refused with problems of the catalogue.
 * @module
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid, objectBody, registerControlRoutes } from '../control-plane/routes.js';
import { isoAt, isScaledClock } from '../server/core/clock.js';
import { ProblemError } from '../server/core/problems.js';
import type { DataReset } from '../server/domain/data-reset.js';
import type { Services } from '../server/ports/services.js';
import { clientControlsPath as root } from './hooks.js';
import type { Journal } from './journal.js';
import type { NextFaults } from './next-faults.js';
import {
  endSession,
  endStates,
  memoProblem,
  type ChosenMemo,
  type EndChange,
  type EndState,
} from '../server/domain/sessions/end-states.js';

function journalFilter(request: FastifyRequest): { operation?: string; since?: number } {
  const query = request.query as Record<string, string | undefined>;
  const since = query.since === undefined ? undefined : Date.parse(query.since);
  if (since !== undefined && Number.isNaN(since)) {
    throw invalid('#/query/since', 'must be an ISO 8601 date-time');
  }
  return {
    ...(query.operation === undefined ? {} : { operation: query.operation }),
    ...(since === undefined ? {} : { since }),
  };
}

function isCount(value: unknown, least: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= least;
}

function queuedFault(services: Services, body: Record<string, unknown>) {
  const { operation, count = 1, status, delay_ms: delay = 0, drop = false } = body;
  const operations = new Set(
    Object.values(services.document.paths ?? {}).flatMap((item) =>
      Object.values(item ?? {}).flatMap((op) =>
        typeof op === 'object' && op !== null && 'operationId' in op ? [String(op.operationId)] : [],
      ),
    ),
  );
  if (typeof operation !== 'string' || !operations.has(operation)) {
    throw invalid('#/body/operation', "must be an operationId of the contract's");
  }
  if (!isCount(count, 1)) {
    throw invalid('#/body/count', 'must be a whole number from 1');
  }
  if (status !== undefined && !(isCount(status, 400) && services.problems.body(status, '').status === status)) {
    throw invalid('#/body/status', "must be a status of the contract's problem catalogue");
  }
  if (!isCount(delay, 0) || delay > 60_000) {
    throw invalid('#/body/delay_ms', 'must be a whole number of milliseconds from 0 to 60000');
  }
  if (typeof drop !== 'boolean') {
    throw invalid('#/body/drop', 'must be a boolean');
  }
  if (status === undefined && delay === 0 && !drop) {
    throw invalid('#/body', 'must have status, delay_ms or drop');
  }
  return { operation, remaining: count, status: status ?? null, delay_ms: delay, drop };
}

function stateChange(services: Services, body: Record<string, unknown>): EndChange {
  const { state, error_code: code, error_message: message, reason, ...memo } = body;
  if (!endStates.includes(state as EndState)) {
    throw invalid('#/body/state', `must be one of ${endStates.join(', ')}`);
  }
  if (state === 'complete') {
    return { state, memo: chosenMemo(services, memo) };
  }
  if ((code !== undefined && typeof code !== 'string') || (message !== undefined && typeof message !== 'string')) {
    throw invalid('#/body', 'error_code and error_message must be strings');
  }
  if (state === 'failed') {
    return code === undefined && message === undefined
      ? { state }
      : { state, error: { error_code: code ?? 'upstream_error', error_message: message ?? 'The run failed.' } };
  }
  return { state: 'cancelled', ...(typeof reason === 'string' ? { reason } : {}) };
}

/** The memo of a completion, checked by the domain; what is wrong is named under the body. */
function chosenMemo(services: Services, memo: Record<string, unknown>): ChosenMemo {
  const wrong = memoProblem(services, memo);
  if (wrong !== undefined) {
    throw invalid(`#/body${wrong.pointer}`, wrong.detail);
  }
  return memo as ChosenMemo;
}

export interface ClientControlState {
  services: () => Services;
  resetData: () => DataReset;
  journal: Journal;
  faults: NextFaults;
}

export function registerClientControlRoutes(
  app: FastifyInstance,
  { services, resetData, journal, faults }: ClientControlState,
): void {
  const clockState = () => ({ now: isoAt(services().clock.now()) });
  registerControlRoutes(app, {
    [`${root}/journal`]: {
      GET: { handle: (request) => ({ requests: journal.list(journalFilter(request)) }) },
      DELETE: { handle: () => ({ cleared: journal.clear() }) },
    },
    [`${root}/faults`]: {
      GET: { handle: () => ({ faults: faults.list() }) },
      POST: { status: 201, handle: (request) => faults.add(queuedFault(services(), objectBody(request))) },
      DELETE: { handle: () => ({ cleared: faults.clear() }) },
    },
    [`${root}/sessions/:id/state`]: {
      PUT: {
        handle: (request) =>
          endSession(services(), (request.params as { id: string }).id, stateChange(services(), objectBody(request))),
      },
    },
    [`${root}/clock`]: {
      GET: { handle: clockState },
      POST: {
        handle(request) {
          const { advance_ms: advance } = objectBody(request);
          const { clock } = services();
          if (!isCount(advance, 0)) {
            throw invalid('#/body/advance_ms', 'must be a whole number of milliseconds from 0');
          }
          if (!isScaledClock(clock)) {
            throw new ProblemError(409, "The server runs on a clock of its caller's; it cannot be advanced here.");
          }
          clock.advance(advance);
          return clockState();
        },
      },
    },
    [`${root}/reset`]: {
      POST: {
        async handle(request) {
          const { data = false } = objectBody(request, {});
          if (typeof data !== 'boolean') {
            throw invalid('#/body/data', 'must be a boolean');
          }
          const cleared = { journal_cleared: journal.clear(), faults_cleared: faults.clear() };
          if (data) {
            await resetData()();
          }
          return { ...cleared, data_reset: data };
        },
      },
    },
  });
}
