/**
 * Starting a session (seed "Endpoints": `POST /v1/sessions`): the estimate is charged to the pool (a
 * consult is billed per turn, but the balance must cover its first), the record is stored, announced by
 * `session.created`, and a boardroom's run begins. The handler and a seed file both start sessions here.
 * @module
 */
import { planOf, resolveStart, type ResolvedStart } from '../../../board/plan.js';
import type { StartSessionRequest } from '../../../board/types.js';
import { newId } from '../../core/ids.js';
import type { Services } from '../../ports/services.js';
import type { ApiKey, StoredSession, Workspace } from '../../ports/records.js';
import { insufficientCredits, spend } from './credits.js';
import { newSession } from './resource.js';

export interface StartedSession {
  start: ResolvedStart;
  session: StoredSession;
}

/** Starts a session for `apiKey` of `workspace` (in one transaction); refusals are problems (402). */
export function startSession(
  services: Services,
  workspace: Workspace,
  apiKey: ApiKey,
  body: StartSessionRequest,
): StartedSession {
  const { store, clock, webhooks, runs } = services;
  const start = resolveStart(body);
  const id = newId('ses');
  const now = clock.now();
  const consult = start.sessionType === 'consult';
  const session = store.transaction(() => {
    const balance = consult
      ? store.credits.balance(workspace.id)
      : spend(services, {
          workspaceId: workspace.id,
          amount: start.estimate.credits,
          kind: 'charge',
          sessionId: id,
          description: `Board session "${start.title ?? start.question ?? id}": ${start.synths.length} Synths, ${start.rounds} rounds, ${start.modelClass}`,
          what: 'This session',
        });
    if (consult && start.estimate.credits > balance) {
      throw insufficientCredits(start.estimate.credits, balance, 'A consult turn');
    }
    const record = newSession({ id, start, keyHint: apiKey.hint, metadata: body.metadata ?? {}, now });
    store.sessions.insert(workspace.id, record, planOf(start, balance), now, apiKey.id);
    webhooks.emit(workspace, 'session.created', {
      session_id: id,
      session_type: record.session_type,
      mode: record.mode,
      synths: record.synths,
      estimated_cost_credits: record.estimated_cost_credits,
    });
    if (!consult) {
      runs.begin(id, {
        seed: id,
        mode: start.mode.slug,
        synths: start.synths,
        title: start.title,
        context: start.context,
        question: start.question,
        rounds: start.rounds,
      });
    }
    return record;
  });
  return { start, session };
}
