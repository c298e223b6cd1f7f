/**
 * The session state machine of docs/session-lifecycle.md. Every change of `status` goes through
 * `transition`, which refuses any move the diagram does not draw with `409 conflict`.
 * @module
 */
import type { components } from '../../../generated/openapi.js';
import { ProblemError } from '../../core/problems.js';

export type SessionStatus = components['schemas']['SessionStatus'];

/** The moves of the diagram: from a state, the states it may become. */
const transitions: Readonly<Record<SessionStatus, readonly SessionStatus[]>> = {
  created: ['running', 'cancelled'],
  running: ['complete', 'failed', 'cancelled'],
  continued: ['complete', 'failed', 'cancelled'],
  complete: ['continued', 'reconvened', 'archived'],
  failed: ['archived'],
  cancelled: ['archived'],
  reconvened: ['archived'],
  archived: [],
};

/** States a session can be deleted from (the diagram's `--> [*]` edges). */
const deletable: readonly SessionStatus[] = ['created', 'complete', 'failed', 'cancelled', 'reconvened', 'archived'];

/** A run is in progress: messages are taken, cancel stops it, delete is refused. */
export function isActive(status: SessionStatus): boolean {
  return status === 'running' || status === 'continued' || status === 'created';
}

export function canTransition(from: SessionStatus, to: SessionStatus): boolean {
  return transitions[from].includes(to);
}

/** `to`, if the diagram allows moving there from `from`; otherwise `409 conflict` naming the operation. */
export function transition(from: SessionStatus, to: SessionStatus, operation: string): SessionStatus {
  if (!canTransition(from, to)) {
    const allowed = Object.entries(transitions)
      .filter(([, targets]) => targets.includes(to))
      .map(([state]) => state);
    throw new ProblemError(
      409,
      `A ${from} session cannot be ${operation}; only a session that is ${allowed.join(' or ')} can.`,
    );
  }
  return to;
}

export function assertDeletable(status: SessionStatus): void {
  if (!deletable.includes(status)) {
    throw new ProblemError(409, `A ${status} session cannot be deleted while its run is in progress; cancel it first.`);
  }
}
