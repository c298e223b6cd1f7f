/**
 * Moving a session to an end state from a test, through the same steps the server's own run takes: the
 * run stops, the unspent estimate is refunded (seed "Cancellation"), the end is recorded on the session's
 * event stream and announced by its webhook event, and the session's watchers are told.
 * @module
 */
import { stampSummary } from '../board/summary.js';
import { isoAt } from '../server/core/clock.js';
import { notFound } from '../server/core/problems.js';
import { transition } from '../server/domain/sessions/lifecycle.js';
import { publishCancellation, reconcile } from '../server/domain/sessions/publish.js';
import type { StoredSession } from '../server/ports/records.js';
import type { Services } from '../server/ports/services.js';

export type ControlledState = 'failed' | 'cancelled';
export const controlledStates: readonly ControlledState[] = ['failed', 'cancelled'];

export interface StateChange {
  state: ControlledState;
  /** For `failed`: the `SessionError` to record (`upstream_error` by default). */
  error?: { error_code: string; error_message: string };
  /** For `cancelled`: the cancellation reason. */
  reason?: string | null;
}

/** Moves the session; a move its lifecycle does not allow is a `409`, an unknown session a `404`. */
export function moveSession(services: Services, id: string, change: StateChange): { id: string; status: string } {
  const { store, clock, webhooks } = services;
  const row = store.sessions.getAny(id);
  if (row === undefined) {
    throw notFound(`Session ${id}`);
  }
  const workspace = store.workspaces.get(row.workspaceId);
  const session = store.transaction(() => {
    const now = clock.now();
    // A board still convening takes its seats first: a run fails only once it has begun.
    const from =
      change.state === 'failed' && row.session.status === 'created'
        ? transition(row.session.status, 'running', 'begun')
        : row.session.status;
    const status = transition(from, change.state, change.state);
    const summary = services.runs.cancel(row.id);
    const base: StoredSession = { ...row.session, status, v4_phase: 'halted', updated_at: isoAt(now) };
    if (change.state === 'cancelled') {
      const cancelled = reconcile(
        services,
        row,
        { ...base, cancellation_reason: change.reason ?? null },
        'cancelled',
        now,
      );
      store.sessions.update(cancelled);
      publishCancellation(services, row, cancelled, summary);
      if (workspace !== undefined) {
        webhooks.emit(workspace, 'session.cancelled', {
          session_id: row.id,
          credits_charged: cancelled.credits_charged,
          credits_refunded: cancelled.credits_refunded,
        });
      }
      return cancelled;
    }
    const error = change.error ?? {
      error_code: 'upstream_error',
      error_message: 'The run was failed by the client controls.',
    };
    const failed = reconcile(services, row, { ...base, error }, 'failed', now);
    store.sessions.update(failed);
    store.streamEvents.append(row.id, 'events', 'session.failed', error, now);
    if (summary !== undefined) {
      store.streamEvents.append(row.id, 'summary', 'summary.final', stampSummary(summary, new Date(now)), now);
    }
    if (workspace !== undefined) {
      webhooks.emit(workspace, 'session.failed', { session_id: row.id, ...error });
    }
    return failed;
  });
  services.changes.notify(row.id);
  return { id: session.id, status: session.status };
}
