/**
 * What is recorded against a session besides its run (seed "Endpoints"): explicit decisions for later
 * outcome inference, share links (public or password-protected), and exports.
 * @module
 */
import { exportSession as exportFile } from '../../../board/export.js';
import { isoAt } from '../../core/clock.js';
import type { Handler } from '../../ports/handlers.js';
import type { Share } from '../../ports/records.js';
import { newId, randomAlphanumeric } from '../../core/ids.js';
import { ProblemError, notFound } from '../../core/problems.js';
import { requireSession, transcriptOf } from '../../domain/sessions/resource.js';
import { shareOrigin } from '../../domain/share-viewer/views.js';
import { recordPage } from './listing.js';

export const captureDecision: Handler<'captureDecision'> = ({ path, body }, context) => {
  const { services, workspace } = context;
  const { store, clock, webhooks } = services;
  const row = requireSession(context, path.id);
  const now = clock.now();
  const decision = {
    id: newId('dec'),
    session_id: row.id,
    decision: body.decision,
    rationale: body.rationale ?? null,
    decided_by: body.decided_by ?? null,
    decided_at: body.decided_at === undefined ? isoAt(now) : new Date(body.decided_at).toISOString(),
    created_at: isoAt(now),
  };
  store.transaction(() => {
    store.decisions.insert(decision.id, row.id, decision, now);
    webhooks.emit(workspace, 'decision.captured', {
      decision_id: decision.id,
      session_id: row.id,
      decision: decision.decision,
      decided_at: decision.decided_at,
    });
  });
  return { status: 201, body: decision };
};

export const listDecisions: Handler<'listDecisions'> = ({ path, query }, context) => {
  const row = requireSession(context, path.id);
  return {
    status: 200,
    body: recordPage(context.services, `decisions:${row.id}`, context.services.store.decisions, row.id, query),
  };
};

export const createShare: Handler<'createShare'> = ({ path, body }, context) => {
  const { services, workspace } = context;
  const { store, clock, webhooks } = services;
  const row = requireSession(context, path.id);
  const now = clock.now();
  // An `expires_at` already past is accepted: the link is created expired. "In the future" is a fact of
  // the server's clock, not of the request, so refusing it would refuse a request the contract calls valid.
  const share: Share = {
    id: newId('shr'),
    session_id: row.id,
    url: `${shareOrigin}${randomAlphanumeric(32)}`,
    access: body.access,
    view_count: 0,
    last_viewed_at: null,
    created_at: isoAt(now),
    expires_at: body.expires_at === undefined ? null : new Date(body.expires_at).toISOString(),
    revoked_at: null,
  };
  store.transaction(() => {
    store.shares.create(share, now, body.access === 'password' ? body.password : undefined);
    webhooks.emit(workspace, 'share.created', {
      share_id: share.id,
      session_id: row.id,
      access: share.access,
      url: share.url,
      expires_at: share.expires_at,
    });
  });
  return { status: 201, body: share };
};

export const listShares: Handler<'listShares'> = ({ path, query }, context) => {
  const row = requireSession(context, path.id);
  return {
    status: 200,
    body: recordPage(context.services, `shares:${row.id}`, context.services.store.shares, row.id, query),
  };
};

export const revokeShare: Handler<'revokeShare'> = ({ path }, context) => {
  const { store, clock } = context.services;
  const row = requireSession(context, path.id);
  const stored = store.shares.get(path.share_id);
  if (stored === undefined || stored.parentId !== row.id) {
    throw notFound(`Share link ${path.share_id}`);
  }
  if (stored.record.revoked_at !== null) {
    throw new ProblemError(
      409,
      `Share link ${stored.id} was revoked at ${stored.record.revoked_at}; revocation is final.`,
    );
  }
  const share = { ...stored.record, revoked_at: isoAt(clock.now()) };
  store.shares.update(share.id, share);
  return { status: 200, body: share };
};

export const exportSession: Handler<'exportSession'> = ({ path, body }, context) => {
  const { clock } = context.services;
  const row = requireSession(context, path.id);
  const file = exportFile(transcriptOf(context.services, row), body.format);
  return {
    status: 201,
    body: { id: newId('exp'), session_id: row.id, format: body.format, created_at: isoAt(clock.now()), ...file },
  };
};
