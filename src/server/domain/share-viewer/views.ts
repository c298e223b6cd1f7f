/**
 * Opening a share link, as the web app's share page does (seed "Endpoints": share links, public or
 * password-protected; the contract's `Share` and `share.viewed`). A view counts when the session is shown:
 * at once for a public link, after the right password for a protected one. A revoked or expired link, a
 * missing password and a wrong one show nothing and count nothing.
 *
 * Passwords are kept as scrypt hashes and compared in constant time (store/shares). Wrong guesses are
 * counted per link in a fixed window of server time; once a window's guesses are spent, every password is
 * refused unchecked until the window ends, so a link's password cannot be guessed at speed.
 * @module
 */
import { isoAt } from '../../core/clock.js';
import type { SessionRow, Share, StoredSession } from '../../ports/records.js';
import type { Services } from '../../ports/services.js';
import { passwordMatches } from '../../store/shares.js';

/** Where share links open (the contract's `Share.url` pattern); the token follows. */
export const shareOrigin = 'https://share.decision-board.example/s/';

/** The token part of `Share.url`. */
const tokenPattern = /^[A-Za-z0-9_-]{16,64}$/;

/** Wrong passwords allowed per link in one window (designed). */
export const passwordGuessLimit = 5;

/** The window wrong passwords are counted in, on the server clock (designed: 15 minutes). */
export const passwordGuessWindowMs = 15 * 60_000;

/** The rate-limit bucket of password guesses; the subject is the link. */
const guessBucket = 'share-password';

export type ShareOpening =
  | { outcome: 'shown'; share: Share; session: StoredSession }
  | { outcome: 'password-required' }
  | { outcome: 'wrong-password'; guessesLeft: number }
  | { outcome: 'too-many-guesses'; retryAfterSeconds: number }
  | { outcome: 'gone'; reason: 'revoked' | 'expired'; at: string }
  | { outcome: 'unknown' };

/** Counts the view and announces it to the workspace's subscriptions, in one transaction. */
function countView(services: Services, share: Share, row: SessionRow, now: number): Share {
  const { store, webhooks } = services;
  return store.transaction(() => {
    const viewedAt = isoAt(now);
    const counted = store.shares.countView(share.id, viewedAt) ?? share;
    const workspace = store.workspaces.get(row.workspaceId);
    if (workspace !== undefined) {
      webhooks.emit(workspace, 'share.viewed', {
        share_id: counted.id,
        session_id: row.id,
        view_count: counted.view_count,
        viewed_at: viewedAt,
      });
    }
    return counted;
  });
}

/** Checks a password against the link's hash, within the link's allowance of wrong guesses. */
function checkPassword(services: Services, share: Share, password: string, now: number): ShareOpening | undefined {
  const { store } = services;
  const subject = `share:${share.id}`;
  const windowStart = Math.floor(now / passwordGuessWindowMs) * passwordGuessWindowMs;
  if (store.rateLimits.count(subject, guessBucket, windowStart) >= passwordGuessLimit) {
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + passwordGuessWindowMs - now) / 1000));
    return { outcome: 'too-many-guesses', retryAfterSeconds };
  }
  const hash = store.shares.passwordHashOf(share.id);
  if (hash !== null && passwordMatches(password, hash)) {
    return undefined;
  }
  const { count } = store.rateLimits.hit(subject, guessBucket, windowStart);
  return { outcome: 'wrong-password', guessesLeft: Math.max(0, passwordGuessLimit - count) };
}

/**
 * Opens the link with `token`: `password` is what the viewer entered, `undefined` when nothing was
 * entered yet (a protected link then asks for it).
 */
export function openShare(services: Services, token: string, password: string | undefined): ShareOpening {
  const { store, clock } = services;
  const stored = tokenPattern.test(token) ? store.shares.getByUrl(`${shareOrigin}${token}`) : undefined;
  const row = stored === undefined ? undefined : store.sessions.getAny(stored.parentId);
  if (stored === undefined || row === undefined) {
    return { outcome: 'unknown' };
  }
  const share = stored.record;
  const now = clock.now();
  if (share.revoked_at !== null) {
    return { outcome: 'gone', reason: 'revoked', at: share.revoked_at };
  }
  if (share.expires_at !== null && Date.parse(share.expires_at) <= now) {
    return { outcome: 'gone', reason: 'expired', at: share.expires_at };
  }
  if (share.access === 'password') {
    if (password === undefined) {
      return { outcome: 'password-required' };
    }
    const refused = checkPassword(services, share, password, now);
    if (refused !== undefined) {
      return refused;
    }
  }
  return { outcome: 'shown', share: countView(services, share, row, now), session: row.session };
}
