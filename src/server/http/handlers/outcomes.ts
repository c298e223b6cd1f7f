/**
 * Outcomes of a session (seed "Endpoints"): the final synthesis with the memo and the documents
 * generated so far, and the generation of a new action plan, report or decision memo.
 * @module
 */
import type { components } from '../../../generated/openapi.js';
import { isoAt } from '../../core/clock.js';
import type { Handler, HandlerContext } from '../../ports/handlers.js';
import type { SessionRow } from '../../ports/records.js';
import { newUuid } from '../../core/ids.js';
import { ProblemError } from '../../core/problems.js';
import { spend } from '../../domain/sessions/credits.js';
import { outcomeSynthRounds, outcomeWritingMs } from '../../domain/sessions/outcome-generation.js';
import { roundRate } from '../../domain/sessions/publish.js';
import { requireSession } from '../../domain/sessions/resource.js';

type Memo = components['schemas']['Memo'];

/** The states that follow a completion keep its outcomes (the `GET …/outcomes` description). */
const decidedStates = new Set(['complete', 'continued', 'reconvened', 'archived']);

function requireDecided(context: HandlerContext, id: string): { row: SessionRow; memo: Memo; synthesis: string } {
  const row = requireSession(context, id);
  const { memo, status } = row.session;
  if (!decidedStates.has(status) || memo === null || row.synthesis === null) {
    throw new ProblemError(
      409,
      `A ${status} session has no outcomes; they exist once a run has completed with a memo.`,
    );
  }
  return { row, memo, synthesis: row.synthesis };
}

export const getOutcomes: Handler<'getOutcomes'> = ({ path }, context) => {
  const { row, memo, synthesis } = requireDecided(context, path.id);
  const outcomes = context.services.store.outcomes.list(row.id, undefined, 1000).map((stored) => stored.record);
  return { status: 200, body: { session_id: row.id, status: row.session.status, synthesis, memo, outcomes } };
};

export const generateOutcome: Handler<'generateOutcome'> = ({ path, body }, context) => {
  const { services, workspace } = context;
  const { store, clock, outcomes } = services;
  const { row } = requireDecided(context, path.id);
  const now = clock.now();
  const outcome = {
    id: newUuid(),
    session_id: row.id,
    format: body.format,
    status: 'pending' as const,
    content: null,
    created_at: isoAt(now),
    ready_at: null,
  };
  const dueAt = now + outcomeWritingMs;
  store.transaction(() => {
    spend(services, {
      workspaceId: workspace.id,
      amount: outcomeSynthRounds * roundRate(row.session),
      kind: 'outcome',
      sessionId: row.id,
      description: `${body.format.replace('_', ' ')} for "${row.session.title ?? row.session.question ?? row.id}"`,
      what: 'This outcome',
    });
    store.outcomes.createPending(outcome, now, dueAt);
  });
  outcomes.schedule(outcome.id, dueAt);
  return { status: 202, body: outcome, headers: { Location: `/v1/sessions/${row.id}/outcomes` } };
};
