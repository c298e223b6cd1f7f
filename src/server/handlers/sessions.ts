/**
 * The session collection and the session itself (seed "Endpoints"): start, plan, read with long-poll,
 * list, update the descriptive fields, delete.
 * @module
 */
import { isQuestionStart, planOf, resolveStart } from '../../board/plan.js';
import { isoAt, sleep } from '../clock.js';
import type { Handler } from '../handler-types.js';
import { newId } from '../ids.js';
import { defaultPageLimit, keysetAfter, keysetPage } from '../pagination.js';
import { ProblemError } from '../problems.js';
import { insufficientCredits, spend } from '../sessions/credits.js';
import { assertDeletable } from '../sessions/lifecycle.js';
import { newSession, requireSession, sessionUrls, toResource } from '../sessions/resource.js';
import type { StoredSession } from '../store/sessions.js';

/** Metadata may hold at most 20 keys (schema `Metadata`, after Stripe). */
const metadataKeyLimit = 20;

export const planSession: Handler<'planSession'> = ({ body }, { services, workspace }) => ({
  status: 200,
  body: planOf(resolveStart(body), services.store.credits.balance(workspace.id)),
});

export const startSession: Handler<'startSession'> = ({ body }, context) => {
  const { services, workspace, apiKey } = context;
  const { store, clock, webhooks, runs } = services;
  const start = resolveStart(body);
  const id = newId('ses');
  const now = clock.now();
  const consult = start.sessionType === 'consult';
  const session = store.transaction(() => {
    // A consult is billed per turn, but the balance must cover the first turn (the estimate).
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
    store.sessions.insert(workspace.id, record, planOf(start, balance), now);
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
  const urls = sessionUrls(services.baseUrl(), id);
  const headers = { Location: `/v1/sessions/${id}` };
  if (isQuestionStart(body)) {
    return {
      status: 202,
      headers,
      body: {
        session_id: id,
        task_id: newId('task'),
        status: session.status,
        session_type: session.session_type,
        estimated_cost_credits: session.estimated_cost_credits,
        events_url: urls.events_url,
      },
    };
  }
  // Versions before the current one answer a lineup start with variant A1 (docs/decisions.md).
  if (context.apiVersion !== services.versions.current) {
    return { status: 202, headers, body: { session_id: id } };
  }
  return {
    status: 202,
    headers,
    body: { id, status: session.status, estimated_cost_credits: session.estimated_cost_credits, ...urls },
  };
};

/** What a long poll waits for a change of (the `wait_ms` description: status, phase or round). */
function progressOf(session: StoredSession): string {
  return `${session.status}/${session.v4_phase}/${session.current_round}`;
}

export const getSession: Handler<'getSession'> = async ({ path, query }, context) => {
  const { services } = context;
  let row = requireSession(context, path.id);
  const waitMs = query.wait_ms ?? 0;
  if (waitMs > 0) {
    const seen = progressOf(row.session);
    const deadline = services.clock.now() + waitMs;
    const waiting = new AbortController();
    const signal = AbortSignal.any([waiting.signal, context.signal]);
    try {
      while (!signal.aborted && services.clock.now() < deadline) {
        const changed = services.changes.next(row.id, signal);
        const current = requireSession(context, path.id);
        if (progressOf(current.session) !== seen) {
          break;
        }
        await Promise.race([changed, sleep(services.clock, deadline - services.clock.now(), signal)]);
      }
    } finally {
      waiting.abort();
    }
    row = requireSession(context, path.id);
  }
  return { status: 200, body: toResource(services, row.session) };
};

export const listSessions: Handler<'listSessions'> = ({ query }, { services, workspace }) => {
  const list = `sessions:${workspace.id}`;
  const limit = query.limit ?? defaultPageLimit;
  const after = keysetAfter(services.cursors, list, query.cursor);
  const rows = services.store.sessions.list(workspace.id, after, limit + 1);
  const page = keysetPage(services.cursors, list, rows, limit, (row) => ({ createdAt: row.createdAt, id: row.id }), (row) =>
    toResource(services, row.session),
  );
  return { status: 200, body: page };
};

export const updateSession: Handler<'updateSession'> = ({ path, body }, context) => {
  const { services } = context;
  const row = requireSession(context, path.id);
  // A Map, so that a key such as `__proto__` (allowed by the key pattern) is a key like any other.
  const merged = new Map(Object.entries(row.session.metadata));
  for (const [key, value] of Object.entries(body.metadata ?? {})) {
    if (value === null) {
      merged.delete(key);
    } else {
      merged.set(key, value);
    }
  }
  const metadata: Record<string, string> = Object.fromEntries(merged);
  if (merged.size > metadataKeyLimit) {
    throw new ProblemError(400, `Metadata may hold at most ${metadataKeyLimit} keys; this update leaves ${merged.size}.`, {
      errors: [{ pointer: '#/body/metadata', detail: `must leave at most ${metadataKeyLimit} keys` }],
    });
  }
  const session: StoredSession = {
    ...row.session,
    title: body.title === undefined ? row.session.title : body.title,
    metadata,
    updated_at: isoAt(services.clock.now()),
  };
  services.store.sessions.update(session);
  return { status: 200, body: toResource(services, session) };
};

export const deleteSession: Handler<'deleteSession'> = ({ path }, context) => {
  const row = requireSession(context, path.id);
  assertDeletable(row.session.status);
  context.services.store.sessions.remove(row.id);
  context.services.changes.notify(row.id);
  return { status: 204 };
};
