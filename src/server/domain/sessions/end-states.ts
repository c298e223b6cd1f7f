/**
 * Moving a session to an end state on request (the client controls, a seed file), through the same steps
 * the server's own run takes: the run stops, the unspent estimate is refunded (seed "Cancellation"), the
 * end is recorded on the session's event stream and announced by its webhook event, and the session's
 * watchers are told. A completion runs the rest of the board at once and ends it with the memo asked for,
 * so the session reads everywhere (record, summary, outcomes, streams, `session.complete`) as one that
 * ran to its memo.
 * @module
 */
import { stampSummary } from '../../../board/summary.js';
import type { Memo } from '../../../board/types.js';
import { isoAt } from '../../core/clock.js';
import { notFound, ProblemError } from '../../core/problems.js';
import type { RunEnd, Services } from '../../ports/services.js';
import type { SessionRow, StoredSession } from '../../ports/records.js';
import { transition } from './lifecycle.js';
import { publishCancellation, reconcile } from './publish.js';

export type EndState = 'complete' | 'failed' | 'cancelled';
export const endStates: readonly EndState[] = ['complete', 'failed', 'cancelled'];

/** The verdict, and any of the memo's other members to set rather than the board's own. */
export type ChosenMemo = Pick<Memo, 'verdict'> & Partial<Memo>;

export type EndChange =
  | { state: 'complete'; memo: ChosenMemo }
  /** `error`: the `SessionError` to record (`upstream_error` by default). */
  | { state: 'failed'; error?: { error_code: string; error_message: string } }
  | { state: 'cancelled'; reason?: string | null };

const memoMembers = ['verdict', 'confidence_0_100', 'conditions', 'dissent'];

/** What a memo holds besides its verdict when the board wrote none (its run was to fail): an even call. */
const undecided = { confidence_0_100: 50, conditions: [], dissent: [] };

/**
 * What is wrong with a memo asked for, if anything: a `verdict` is any non-empty statement (the
 * contract's `Memo.verdict` is free text), and the other members are the contract's `Memo`'s, checked
 * against its schema. `pointer` is relative to the memo.
 */
export function memoProblem(
  services: Services,
  memo: Record<string, unknown>,
): { pointer: string; detail: string } | undefined {
  if (typeof memo.verdict !== 'string' || memo.verdict.trim() === '') {
    return { pointer: '/verdict', detail: 'must be a non-empty string: the verdict of the memo' };
  }
  const stray = Object.keys(memo).find((key) => !memoMembers.includes(key));
  if (stray !== undefined) {
    return { pointer: `/${stray}`, detail: `is not a member of the memo (${memoMembers.join(', ')})` };
  }
  const whole = { ...undecided, ...memo };
  const [first] = services.validator.validate('#/components/schemas/Memo', whole).errors;
  return first === undefined
    ? undefined
    : { pointer: first.instancePath, detail: `${first.message ?? 'is invalid'} (schema Memo)` };
}

/** Moves the session; a move its lifecycle does not allow is a `409`, an unknown session a `404`. */
export function endSession(services: Services, id: string, change: EndChange): { id: string; status: string } {
  const row = services.store.sessions.getAny(id);
  if (row === undefined) {
    throw notFound(`Session ${id}`);
  }
  if (change.state === 'complete') {
    complete(services, row, change.memo);
  } else {
    services.store.transaction(() =>
      change.state === 'cancelled' ? cancel(services, row, change.reason ?? null) : fail(services, row, change.error),
    );
  }
  services.changes.notify(row.id);
  const { status } = services.store.sessions.getAny(id)?.session ?? row.session;
  return { id, status };
}

function complete(services: Services, row: SessionRow, memo: ChosenMemo): void {
  transition(row.session.status === 'created' ? 'running' : row.session.status, 'complete', 'completed');
  const decide = (end: RunEnd) => {
    const decided = end.kind === 'decided' ? end.memo : undecided;
    const chosen: Memo = { ...decided, ...memo };
    const synthesis =
      end.kind === 'decided' && chosen.verdict === end.memo.verdict
        ? end.synthesis
        : `After round ${end.round}, the board's verdict: ${chosen.verdict}`;
    return {
      kind: 'decided' as const,
      simulatedMs: 0,
      round: end.round,
      memo: chosen,
      synthesis,
      summary: end.summary,
    };
  };
  if (!services.runs.finish(row.id, decide)) {
    throw new ProblemError(
      409,
      `Session ${row.id} has no board run in progress to complete (a consult session has none).`,
    );
  }
}

function ended(services: Services, row: SessionRow, status: 'failed' | 'cancelled'): StoredSession {
  // A board still convening takes its seats first: a run fails only once it has begun.
  const from =
    status === 'failed' && row.session.status === 'created'
      ? transition(row.session.status, 'running', 'begun')
      : row.session.status;
  return {
    ...row.session,
    status: transition(from, status, status),
    v4_phase: 'halted',
    updated_at: isoAt(services.clock.now()),
  };
}

function cancel(services: Services, row: SessionRow, reason: string | null): void {
  const { store, clock, webhooks } = services;
  const base = ended(services, row, 'cancelled');
  const summary = services.runs.cancel(row.id);
  const cancelled = reconcile(services, row, { ...base, cancellation_reason: reason }, 'cancelled', clock.now());
  store.sessions.update(cancelled);
  publishCancellation(services, row, cancelled, summary);
  const workspace = store.workspaces.get(row.workspaceId);
  if (workspace !== undefined) {
    webhooks.emit(workspace, 'session.cancelled', {
      session_id: row.id,
      credits_charged: cancelled.credits_charged,
      credits_refunded: cancelled.credits_refunded,
    });
  }
}

function fail(
  services: Services,
  row: SessionRow,
  given: { error_code: string; error_message: string } | undefined,
): void {
  const { store, clock, webhooks } = services;
  const now = clock.now();
  const base = ended(services, row, 'failed');
  const summary = services.runs.cancel(row.id);
  const error = given ?? { error_code: 'upstream_error', error_message: 'The run was failed on request.' };
  const failed = reconcile(services, row, { ...base, error }, 'failed', now);
  store.sessions.update(failed);
  store.streamEvents.append(row.id, 'events', 'session.failed', error, now);
  if (summary !== undefined) {
    store.streamEvents.append(row.id, 'summary', 'summary.final', stampSummary(summary, new Date(now)), now);
  }
  const workspace = store.workspaces.get(row.workspaceId);
  if (workspace !== undefined) {
    webhooks.emit(workspace, 'session.failed', { session_id: row.id, ...error });
  }
}
