/**
 * What each step of a board run does to its session (seed "Server-sent event stream of a session",
 * "Event types and data"): a Synth's message and a round's end are recorded on the `events` stream, a
 * round's end also updates the live summary and charges the round; the memo completes the session and a
 * failure halts it, each with its stream events, its final summary and its webhook event.
 * @module
 */
import { creditsPerSynthRound } from '../../../board/credits.js';
import type { BoardStep } from '../../../board/debate.js';
import { stampSummary, type BoardSummary } from '../../../board/summary.js';
import { isoAt } from '../../core/clock.js';
import type { SessionRow, StoredSession } from '../../ports/records.js';
import type { Services } from '../../ports/services.js';
import { transition } from './lifecycle.js';
import { sessionUrls } from './resource.js';

/** The credits one Synth-round costs in this session (5 standard, 15 premium). */
export function roundRate(session: StoredSession): number {
  return creditsPerSynthRound(session.model_class === 'premium' ? 'premium' : 'standard');
}

function appendSummary(
  services: Services,
  sessionId: string,
  name: 'summary.update' | 'summary.final',
  summary: BoardSummary,
  now: number,
): void {
  services.store.streamEvents.append(sessionId, 'summary', name, stampSummary(summary, new Date(now)), now);
}

/**
 * Ends a run that stopped before its memo (failure or cancellation): the unspent part of the estimate
 * returns to the pool, as the reconciliation the seed describes for cancellation.
 */
export function reconcile(
  services: Services,
  row: SessionRow,
  session: StoredSession,
  reason: string,
  now: number,
): StoredSession {
  const refunded = Math.max(0, session.estimated_cost_credits - session.credits_charged - session.credits_refunded);
  if (refunded > 0) {
    services.store.credits.record({
      workspaceId: row.workspaceId,
      kind: 'refund',
      credits: refunded,
      sessionId: session.id,
      description: `Reconciliation of ${reason} session "${session.title ?? session.question ?? session.id}": ${session.credits_charged} charged, ${refunded} refunded`,
      at: now,
    });
  }
  return { ...session, credits_refunded: session.credits_refunded + refunded };
}

/** The board has taken its seats: a `created` session's run begins (`running`, `v4_phase` `staffing`). */
export function publishRunBegun(services: Services, row: SessionRow): StoredSession {
  const session: StoredSession = {
    ...row.session,
    status: transition(row.session.status, 'running', 'begun'),
    v4_phase: 'staffing',
    updated_at: isoAt(services.clock.now()),
  };
  services.store.sessions.update(session);
  return session;
}

/** Applies a published step to the session; returns the session as it now stands. */
export function publishStep(services: Services, row: SessionRow, step: BoardStep, currentRound: number): StoredSession {
  const { store, clock, webhooks } = services;
  const now = clock.now();
  const workspace = store.workspaces.get(row.workspaceId);
  let session: StoredSession = { ...row.session, updated_at: isoAt(now) };
  switch (step.kind) {
    case 'synth.message':
      store.streamEvents.append(row.id, 'events', 'synth.message', step.data, now);
      session = { ...session, v4_phase: 'debating', current_round: step.data.round };
      break;
    case 'round.complete': {
      store.streamEvents.append(row.id, 'events', 'round.complete', step.data, now);
      appendSummary(services, row.id, 'summary.update', step.summary, now);
      const last = step.data.round >= session.rounds;
      session = {
        ...session,
        v4_phase: last ? 'synthesizing' : 'debating',
        current_round: currentRound,
        credits_charged: session.credits_charged + session.synths.length * roundRate(session),
      };
      break;
    }
    case 'decided': {
      const outcomesUrl = sessionUrls(services.baseUrl(), row.id).outcomes_url;
      store.streamEvents.append(row.id, 'events', 'session.complete', { outcomes_url: outcomesUrl }, now);
      appendSummary(services, row.id, 'summary.final', step.summary, now);
      store.sessions.setSynthesis(row.id, step.synthesis);
      session = {
        ...session,
        status: transition(session.status, 'complete', 'completed'),
        v4_phase: 'done',
        memo: step.memo,
        current_round: step.round,
        completed_at: isoAt(now),
        // Every round ran, so the whole estimate (with any Synths sent back) is spent.
        credits_charged: session.estimated_cost_credits - session.credits_refunded,
      };
      if (workspace !== undefined) {
        webhooks.emitSessionComplete(workspace, row.apiKeyId, {
          session_id: row.id,
          verdict: step.memo.verdict,
          credits_charged: session.credits_charged,
          session_url: `${services.baseUrl()}/v1/sessions/${row.id}`,
        });
      }
      break;
    }
    case 'failed': {
      store.streamEvents.append(row.id, 'events', 'session.failed', step.error, now);
      appendSummary(services, row.id, 'summary.final', step.summary, now);
      session = {
        ...session,
        status: transition(session.status, 'failed', 'failed'),
        v4_phase: 'halted',
        error: step.error,
        current_round: step.round,
      };
      session = reconcile(services, row, session, 'failed', now);
      if (workspace !== undefined) {
        webhooks.emit(workspace, 'session.failed', { session_id: row.id, ...step.error });
      }
      break;
    }
  }
  store.sessions.update(session);
  return session;
}

/** Records the end of a cancelled run on both streams. */
export function publishCancellation(
  services: Services,
  row: SessionRow,
  session: StoredSession,
  summary: BoardSummary | undefined,
): void {
  const now = services.clock.now();
  services.store.streamEvents.append(
    row.id,
    'events',
    'session.cancelled',
    { credits_charged: session.credits_charged, credits_refunded: session.credits_refunded },
    now,
  );
  if (summary !== undefined) {
    appendSummary(services, row.id, 'summary.final', summary, now);
  }
}
