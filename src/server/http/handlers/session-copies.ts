/**
 * Operations that make a new session from an existing one (seed "What the service does" 4; "States and
 * transitions"): fork with altered context, from any state, and reconvene a decided session into a new
 * round session. Both are priced like a start and announce the new session.
 * @module
 */
import { requireLineup, requireMode } from '../../../board/catalog.js';
import { estimateCredits } from '../../../board/credits.js';
import { planOf, type ResolvedStart } from '../../../board/plan.js';
import { namedBoard } from '../../../board/staffing.js';
import { isoAt } from '../../core/clock.js';
import type { Handler, HandlerContext } from '../../ports/handlers.js';
import type { StoredSession } from '../../ports/records.js';
import { newId } from '../../core/ids.js';
import { ProblemError } from '../../core/problems.js';
import { spend } from '../../domain/sessions/credits.js';
import { transition } from '../../domain/sessions/lifecycle.js';
import { newSession, requireSession, toResource } from '../../domain/sessions/resource.js';
import { maxRounds, refuseConsult } from './session-runs.js';

interface NewRun {
  start: ResolvedStart;
  firstRound: number;
  forkedFrom?: string;
  sourceSessionId?: string;
  earlier?: { kind: 'reconvened'; memo: NonNullable<StoredSession['memo']> };
  metadata: Record<string, string>;
}

/** Creates and starts a session for a fork or a reconvene: priced like a start (`402` if not covered). */
function startDerived(context: HandlerContext, run: NewRun): StoredSession {
  const { services, workspace, apiKey } = context;
  const { store, clock, runs } = services;
  const id = newId('ses');
  const now = clock.now();
  const balance = spend(services, {
    workspaceId: workspace.id,
    amount: run.start.estimate.credits,
    kind: 'charge',
    sessionId: id,
    description: `Board session "${run.start.title ?? run.start.question ?? id}": ${run.start.synths.length} Synths, ${run.start.rounds} rounds, ${run.start.modelClass}`,
    what: 'This session',
  });
  const session = newSession({
    id,
    start: run.start,
    keyHint: apiKey.hint,
    metadata: run.metadata,
    now,
    firstRound: run.firstRound,
    ...(run.forkedFrom === undefined ? {} : { forkedFrom: run.forkedFrom }),
    ...(run.sourceSessionId === undefined ? {} : { sourceSessionId: run.sourceSessionId }),
  });
  store.sessions.insert(workspace.id, session, planOf(run.start, balance), now, apiKey.id);
  runs.begin(id, {
    seed: id,
    mode: run.start.requestedMode,
    synths: run.start.synths,
    title: run.start.title,
    context: run.start.context,
    question: run.start.question,
    firstRound: run.firstRound,
    rounds: run.start.rounds,
    ...(run.earlier === undefined ? {} : { earlier: run.earlier }),
  });
  return session;
}

function lineupOf(source: StoredSession, synths: readonly string[] | undefined) {
  if (synths === undefined) {
    return { synths: source.synths, brief: source.decision_brief };
  }
  const seats = requireLineup(synths);
  return {
    synths: seats.map((synth) => synth.slug),
    brief: { question: source.question, staffed_by: 'user' as const, lineup: namedBoard(seats) },
  };
}

/** The start of a new boardroom session made from `source`, with what the request changes. */
function derivedStart(
  source: StoredSession,
  change: {
    requestedMode: string;
    synths: readonly string[] | undefined;
    title: string | null;
    context: string | null;
    rounds: number;
    modelClass: 'standard' | 'premium';
  },
): ResolvedStart {
  const lineup = lineupOf(source, change.synths);
  return {
    sessionType: 'boardroom',
    requestedMode: change.requestedMode,
    mode: requireMode(change.requestedMode),
    title: change.title,
    context: change.context,
    question: source.question,
    synthId: null,
    synths: lineup.synths,
    rounds: change.rounds,
    modelClass: change.modelClass,
    decisionBrief: lineup.brief,
    estimate: estimateCredits(lineup.synths.length, change.rounds, change.modelClass),
  };
}

export const reconveneSession: Handler<'reconveneSession'> = ({ path, body }, context) => {
  const { services, workspace } = context;
  const { store, clock, webhooks } = services;
  const row = requireSession(context, path.id);
  refuseConsult(row, 'reconvened');
  const status = transition(row.session.status, 'reconvened', 'reconvened');
  const memo = row.session.memo;
  const rounds = body?.rounds ?? 1;
  const firstRound = row.session.rounds + 1;
  if (memo === null || row.session.rounds + rounds > maxRounds) {
    throw new ProblemError(
      409,
      memo === null
        ? 'Only a decided session (one with a memo) can be reconvened.'
        : `A session runs at most ${maxRounds} rounds; this one has run ${row.session.rounds}.`,
    );
  }
  const source = row.session;
  const start = derivedStart(source, {
    requestedMode: source.mode,
    synths: body?.synths,
    title: source.title,
    context: body?.context ?? source.context,
    rounds,
    modelClass: source.model_class === 'premium' ? 'premium' : 'standard',
  });
  const session = store.transaction(() => {
    const created = startDerived(context, {
      start,
      firstRound,
      sourceSessionId: source.id,
      earlier: { kind: 'reconvened', memo },
      metadata: source.metadata,
    });
    store.sessions.update({ ...source, status, reconvened_into: created.id, updated_at: isoAt(clock.now()) });
    webhooks.emit(workspace, 'session.reconvened', {
      session_id: created.id,
      source_session_id: source.id,
      round_number: firstRound,
    });
    return created;
  });
  services.changes.notify(row.id);
  return { status: 202, body: toResource(services, session), headers: { Location: `/v1/sessions/${session.id}` } };
};

export const forkSession: Handler<'forkSession'> = ({ path, body }, context) => {
  const { services, workspace } = context;
  const { store, webhooks } = services;
  const row = requireSession(context, path.id);
  refuseConsult(row, 'forked');
  const source = row.session;
  const start = derivedStart(source, {
    requestedMode: body.mode ?? source.mode,
    synths: body.synths,
    title: body.title ?? source.title,
    context: body.context,
    rounds: body.rounds ?? Math.min(source.rounds, maxRounds),
    modelClass: body.model_class ?? (source.model_class === 'premium' ? 'premium' : 'standard'),
  });
  const session = store.transaction(() => {
    const created = startDerived(context, { start, firstRound: 1, forkedFrom: source.id, metadata: source.metadata });
    webhooks.emit(workspace, 'session.created', {
      session_id: created.id,
      session_type: created.session_type,
      mode: created.mode,
      synths: created.synths,
      estimated_cost_credits: created.estimated_cost_credits,
    });
    return created;
  });
  return { status: 202, body: toResource(services, session), headers: { Location: `/v1/sessions/${session.id}` } };
};
