/**
 * Operations that steer a session's run (seed "What the service does" 4; transitions of
 * docs/session-lifecycle.md): cancel with credit reconciliation, archive, continue with follow-up
 * rounds, messages into a running session, and the pre-flight plan recorded at the start.
 * @module
 */
import { isoAt } from '../../core/clock.js';
import type { Handler } from '../../ports/handlers.js';
import type { SessionRow, StoredSession } from '../../ports/records.js';
import { newId } from '../../core/ids.js';
import { ProblemError } from '../../core/problems.js';
import { spend } from '../../domain/sessions/credits.js';
import { isActive, transition } from '../../domain/sessions/lifecycle.js';
import { publishCancellation, reconcile, roundRate } from '../../domain/sessions/publish.js';
import { requireSession, toResource } from '../../domain/sessions/resource.js';

/** The most rounds a session numbers (schema `StartSessionRequestA.rounds`; continue and reconvene say so). */
export const maxRounds = 10;

export function refuseConsult(row: SessionRow, operation: string): void {
  if (row.session.session_type === 'consult') {
    throw new ProblemError(
      409,
      `A consult session cannot be ${operation}; its turns go through the MCP tool service.consult.message.`,
    );
  }
}

function titleOf(session: StoredSession): string {
  return session.title ?? session.question ?? session.id;
}

export const getSessionPlan: Handler<'getSessionPlan'> = ({ path }, context) => ({
  status: 200,
  body: requireSession(context, path.id).plan,
});

export const cancelSession: Handler<'cancelSession'> = ({ path, body }, context) => {
  const { services, workspace } = context;
  const { store, clock, runs, webhooks } = services;
  const row = requireSession(context, path.id);
  const session = store.transaction(() => {
    const now = clock.now();
    const status = transition(row.session.status, 'cancelled', 'cancelled');
    const summary = runs.cancel(row.id);
    const cancelled = reconcile(
      services,
      row,
      { ...row.session, status, v4_phase: 'halted', cancellation_reason: body?.reason ?? null, updated_at: isoAt(now) },
      'cancelled',
      now,
    );
    store.sessions.update(cancelled);
    publishCancellation(services, row, cancelled, summary);
    webhooks.emit(workspace, 'session.cancelled', {
      session_id: row.id,
      credits_charged: cancelled.credits_charged,
      credits_refunded: cancelled.credits_refunded,
    });
    return cancelled;
  });
  services.changes.notify(row.id);
  return { status: 200, body: toResource(services, session) };
};

export const archiveSession: Handler<'archiveSession'> = ({ path }, context) => {
  const { services } = context;
  const row = requireSession(context, path.id);
  const now = isoAt(services.clock.now());
  const session: StoredSession = {
    ...row.session,
    status: transition(row.session.status, 'archived', 'archived'),
    archived_at: now,
    updated_at: now,
  };
  services.store.sessions.update(session);
  services.changes.notify(row.id);
  return { status: 200, body: toResource(services, session) };
};

export const continueSession: Handler<'continueSession'> = ({ path, body }, context) => {
  const { services, workspace } = context;
  const { store, clock, runs, webhooks } = services;
  const row = requireSession(context, path.id);
  refuseConsult(row, 'continued');
  const status = transition(row.session.status, 'continued', 'continued');
  const rounds = body?.rounds ?? 1;
  const firstRound = row.session.rounds + 1;
  if (row.session.rounds + rounds > maxRounds || row.session.memo === null) {
    throw new ProblemError(409, `A session runs at most ${maxRounds} rounds; this one has run ${row.session.rounds}.`);
  }
  const cost = row.session.synths.length * rounds * roundRate(row.session);
  const session = store.transaction(() => {
    spend(services, {
      workspaceId: workspace.id,
      amount: cost,
      kind: 'charge',
      sessionId: row.id,
      description: `Follow-up rounds of "${titleOf(row.session)}": ${row.session.synths.length} Synths, ${rounds} rounds`,
      what: 'The follow-up rounds',
    });
    const continued: StoredSession = {
      ...row.session,
      status,
      v4_phase: 'debating',
      rounds: row.session.rounds + rounds,
      current_round: firstRound,
      estimated_cost_credits: row.session.estimated_cost_credits + cost,
      updated_at: isoAt(clock.now()),
    };
    store.sessions.update(continued);
    runs.begin(row.id, {
      seed: row.id,
      mode: row.session.mode,
      synths: row.session.synths,
      title: row.session.title,
      context: row.session.context,
      question: row.session.question,
      firstRound,
      rounds,
      earlier: {
        kind: 'continued',
        memo: row.session.memo as NonNullable<StoredSession['memo']>,
        prompt: body?.prompt ?? null,
      },
    });
    webhooks.emit(workspace, 'session.continued', { session_id: row.id, round_number: firstRound });
    return continued;
  });
  services.changes.notify(row.id);
  return { status: 202, body: toResource(services, session), headers: { Location: `/v1/sessions/${row.id}` } };
};

export const sendSessionMessage: Handler<'sendSessionMessage'> = ({ path, body }, context) => {
  const { services, workspace } = context;
  const { store, clock, runs } = services;
  const row = requireSession(context, path.id);
  refuseConsult(row, 'sent messages');
  if (!isActive(row.session.status) || row.session.status === 'created') {
    throw new ProblemError(
      409,
      `A ${row.session.status} session takes no messages; only a running or continued one does.`,
    );
  }
  const sendBack = body.send_back ?? [];
  // Any Synth of the library is a valid `send_back` entry (`SynthChoice`); whether it sits on this board
  // is the session's state, so one that does not is a conflict with it (seed "Errors": 409).
  const absent = sendBack.filter((slug) => !row.session.synths.includes(slug));
  if (absent.length > 0) {
    throw new ProblemError(
      409,
      `${absent.map((slug) => `"${slug}"`).join(', ')} ${absent.length === 1 ? 'does' : 'do'} not sit on this board; send back only Synths of the session.`,
    );
  }
  const cost = sendBack.length * roundRate(row.session);
  const message = store.transaction(() => {
    const now = clock.now();
    if (cost > 0) {
      spend(services, {
        workspaceId: workspace.id,
        amount: cost,
        kind: 'charge',
        sessionId: row.id,
        description: `${sendBack.length} Synths sent back in "${titleOf(row.session)}"`,
        what: 'Sending these Synths back',
      });
    }
    const { round } = runs.sendMessage(row.id, {
      content: body.content,
      ...(sendBack.length > 0 ? { send_back: sendBack } : {}),
    });
    const record = {
      id: newId('msg'),
      session_id: row.id,
      content: body.content,
      send_back: sendBack,
      round,
      created_at: isoAt(now),
    };
    store.messages.insert(record.id, row.id, record, now);
    store.sessions.update({
      ...row.session,
      // The Synths sent back are spent at once, so the reconciliation of a cancellation counts them.
      estimated_cost_credits: row.session.estimated_cost_credits + cost,
      credits_charged: row.session.credits_charged + cost,
      updated_at: isoAt(now),
    });
    return record;
  });
  return { status: 202, body: message };
};
