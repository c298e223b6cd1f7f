/**
 * The session collection and the session itself (seed "Endpoints"): start, plan, read with long-poll,
 * list, update the descriptive fields, delete.
 * @module
 */
import { isQuestionStart, planOf, resolveStart } from '../../../board/plan.js';
import { startSession as beginSession } from '../../domain/sessions/start.js';
import { isoAt, sleep } from '../../core/clock.js';
import type { Handler } from '../../ports/handlers.js';
import type { SessionAnswer, StoredSession } from '../../ports/records.js';
import type { Services } from '../../ports/services.js';
import { newId } from '../../core/ids.js';
import { JsonText } from '../../core/json-text.js';
import { defaultPageLimit, keysetAfter } from '../../core/pagination.js';
import { notFound, ProblemError } from '../../core/problems.js';
import { assertDeletable, isActive } from '../../domain/sessions/lifecycle.js';
import { reconcile } from '../../domain/sessions/publish.js';
import { requireSession, sessionUrls, toResource } from '../../domain/sessions/resource.js';

/** Metadata may hold at most 20 keys (schema `Metadata`, after Stripe). */
const metadataKeyLimit = 20;

export const planSession: Handler<'planSession'> = ({ body }, { services, workspace }) => ({
  status: 200,
  body: planOf(resolveStart(body), services.store.credits.balance(workspace.id)),
});

export const startSession: Handler<'startSession'> = ({ body }, context) => {
  const { services, workspace, apiKey } = context;
  const { session } = beginSession(services, workspace, apiKey, body);
  const { id } = session;
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

/**
 * `getSession` with `wait_ms`: answers once the session's progress changes, or when the wait is over.
 * The wait is wall-clock milliseconds whatever the time scale: the client holding the request times it
 * with its own clock (docs/decisions.md "Time and other implementations"). A session that has ended is
 * answered at once: the seed's wait is for completion, and no change of an ended run is coming.
 */
const longPoll: Handler<'getSession'> = async ({ path, query }, context) => {
  const { services } = context;
  const { wallClock } = services;
  const waitMs = query.wait_ms ?? 0;
  let row = requireSession(context, path.id);
  if (!isActive(row.session.status)) {
    return { status: 200, body: toResource(services, row.session) };
  }
  const seen = progressOf(row.session);
  const deadline = wallClock.now() + waitMs;
  const waiting = new AbortController();
  const signal = AbortSignal.any([waiting.signal, context.signal]);
  try {
    while (!signal.aborted && wallClock.now() < deadline) {
      const changed = services.changes.next(row.id, signal);
      const current = requireSession(context, path.id);
      if (progressOf(current.session) !== seen) {
        break;
      }
      await Promise.race([changed, sleep(wallClock, deadline - wallClock.now(), signal)]);
    }
  } finally {
    waiting.abort();
  }
  // A poll whose client has gone, or whose server is stopping and may have closed the store, answers
  // nobody: it ends without reading the store again.
  if (!context.signal.aborted) {
    row = requireSession(context, path.id);
  }
  return { status: 200, body: toResource(services, row.session) };
};

export const getSession: Handler<'getSession'> = (request, context) => {
  const { services } = context;
  const { id } = request.path;
  if ((request.query.wait_ms ?? 0) > 0) {
    return longPoll(request, context);
  }
  // A read without a wait sends the stored record as it is: parsing it (and its plan) only to
  // serialise it again was a fifteenth of the cost of the read (docs/benchmarks.md).
  const json = services.store.sessions.answer(context.workspace.id, id, sessionsUrl(services));
  if (json === undefined) {
    throw notFound(`Session ${id}`);
  }
  return { status: 200, body: new JsonText(json) };
};

export const listSessions: Handler<'listSessions'> = ({ query }, { services, workspace }) => {
  const list = `sessions:${workspace.id}`;
  const limit = query.limit ?? defaultPageLimit;
  const after = keysetAfter(services.cursors, list, query.cursor);
  const { items, more } = services.store.sessions.listPage(workspace.id, after, limit, sessionsUrl(services));
  const last = items.at(-1);
  let nextCursor: string | null = null;
  if (more && last !== undefined) {
    nextCursor = last.cursorAfter ??= services.cursors.encode(list, { createdAt: last.createdAt, id: last.id });
  }
  return { status: 200, body: new JsonText(pageJson(items, nextCursor)) };
};

const pageOpening = Buffer.from('{"items":[');

/** A page as `JSON.stringify` writes a `Page`: the kept answers' bytes copied once, in one buffer. */
function pageJson(items: SessionAnswer[], nextCursor: string | null): Buffer {
  const closing = Buffer.from(`],"next_cursor":${JSON.stringify(nextCursor)}}`);
  const parts: Buffer[] = [pageOpening];
  let length = pageOpening.length + closing.length;
  items.forEach(({ listed }, index) => {
    // Each answer starts with the comma that separates it from the one before.
    const part = index === 0 ? listed.subarray(1) : listed;
    parts.push(part);
    length += part.length;
  });
  parts.push(closing);
  return Buffer.concat(parts, length);
}

/** `{base_url}/v1/sessions/` as JSON text (escaped, unquoted), for the session store's answers. */
function sessionsUrl(services: Services): string {
  return JSON.stringify(`${services.baseUrl()}/v1/sessions/`).slice(1, -1);
}

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
  // The request alone is bounded by the schema (`MetadataPatch`); what it leaves depends on the keys
  // already stored, so too many is a conflict with the session's state (seed "Errors": 409).
  if (merged.size > metadataKeyLimit) {
    throw new ProblemError(
      409,
      `Metadata may hold at most ${metadataKeyLimit} keys; with the ${Object.keys(row.session.metadata).length} keys stored, this update would leave ${merged.size}.`,
    );
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
  const { services } = context;
  const row = requireSession(context, path.id);
  assertDeletable(row.session.status);
  services.store.transaction(() => {
    // A `created` session's run has not begun: the board stays unconvened and its reservation returns.
    if (row.session.status === 'created') {
      services.runs.cancel(row.id);
      reconcile(services, row, row.session, 'deleted', services.clock.now());
    }
    services.store.sessions.remove(row.id);
  });
  services.changes.notify(row.id);
  return { status: 204 };
};
