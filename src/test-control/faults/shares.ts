/**
 * Faults in share links (seed "What the service does" 4, "Endpoints"): a protected link left out of the
 * list, its password returned, revocation not recorded, the share page asking a public link for a
 * password, opening with any password or after revocation, `share.created` and `share.viewed` never sent,
 * a second revocation answered as a first, password guessing without a limit.
 * @module
 */
import { passwordPage, sessionPage } from '../../server/domain/share-viewer/page.js';
import { shareOrigin } from '../../server/domain/share-viewer/views.js';
import { passwordMatches } from '../../server/store/shares.js';
import { answerJson, editJson, is } from './exchange-edits.js';
import type { Fault, FaultResponse, FaultState } from './types.js';
import { withhold } from './withheld-events.js';

const sharesPath = /^\/v1\/sessions\/[^/]+\/shares$/;
const pagePath = /^\/s\/([^/]+)$/;
const passwordKey = 'share-password-returned';

function page(html: string): FaultResponse {
  return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, text: html };
}

/** The session page of the link a share page request names, whatever the link's state. */
function showSession(path: string, state: FaultState, only: (revoked: boolean) => boolean): FaultResponse | undefined {
  const token = pagePath.exec(path)?.[1];
  const stored = token === undefined ? undefined : state.services.store.shares.getByUrl(`${shareOrigin}${token}`);
  const row = stored === undefined ? undefined : state.services.store.sessions.getAny(stored.parentId);
  return stored === undefined || row === undefined || !only(stored.record.revoked_at !== null)
    ? undefined
    : page(sessionPage(row.session, stored.record));
}

export const shareFaults: Fault[] = [
  {
    name: 'share-protected-not-listed',
    breaks: ['SHARE-001'],
    response: (request, response) =>
      is(request, 'GET', sharesPath) && response.status === 200
        ? editJson(
            response,
            (body) =>
              (body['items'] = (body['items'] as Array<{ access?: unknown }>).filter(
                (item) => item.access !== 'password',
              )),
          )
        : undefined,
  },
  {
    name: 'share-password-returned',
    breaks: ['SHARE-002'],
    // The creation answer echoes the request's password, as a server that keeps it in the record would.
    answer(request, state) {
      if (is(request, 'POST', sharesPath)) {
        state.memory.set(
          passwordKey,
          (JSON.parse(request.body.toString('utf8') || '{}') as { password?: unknown }).password,
        );
      }
      return undefined;
    },
    response: (request, response, state) =>
      is(request, 'POST', sharesPath) && response.status === 201 && typeof state.memory.get(passwordKey) === 'string'
        ? editJson(response, (body) => (body['password'] = state.memory.get(passwordKey)))
        : undefined,
  },
  {
    name: 'share-revocation-unrecorded',
    breaks: ['SHARE-003'],
    response: (request, response) =>
      is(request, 'POST', /\/shares\/[^/]+\/revoke$/) && response.status === 200
        ? editJson(response, (body) => (body['revoked_at'] = null))
        : undefined,
  },
  {
    name: 'share-public-asks-password',
    breaks: ['SHARE-004'],
    answer: (request) => (is(request, 'GET', pagePath) ? page(passwordPage()) : undefined),
  },
  {
    name: 'share-any-password',
    breaks: ['SHARE-005'],
    answer: (request, state) =>
      is(request, 'POST', pagePath) ? showSession(request.url.pathname, state, (revoked) => !revoked) : undefined,
  },
  {
    name: 'share-revoked-still-opens',
    breaks: ['SHARE-006'],
    answer: (request, state) =>
      is(request, 'GET', pagePath) ? showSession(request.url.pathname, state, (revoked) => revoked) : undefined,
  },
  { name: 'share-created-withheld', breaks: ['SHARE-007'], delivery: withhold('share.created') },
  { name: 'share-viewed-withheld', breaks: ['SHARE-008'], delivery: withhold('share.viewed') },
  {
    name: 'share-revoked-twice',
    breaks: ['SHARE-009'],
    response: (request, response) =>
      is(request, 'POST', /\/shares\/[^/]+\/revoke$/) && response.status === 409
        ? answerJson(response, 200, '{}')
        : undefined,
  },
  {
    name: 'share-password-unlimited',
    breaks: ['SHARE-010'],
    // The right password opens the link however many wrong ones came before it.
    answer(request, state) {
      const token = is(request, 'POST', pagePath) ? pagePath.exec(request.url.pathname)?.[1] : undefined;
      const stored = token === undefined ? undefined : state.services.store.shares.getByUrl(`${shareOrigin}${token}`);
      const hash = stored === undefined ? null : state.services.store.shares.passwordHashOf(stored.record.id);
      const password = new URLSearchParams(request.body.toString('utf8')).get('password');
      return hash !== null && password !== null && passwordMatches(password, hash)
        ? showSession(request.url.pathname, state, (revoked) => !revoked)
        : undefined;
    },
  },
];
