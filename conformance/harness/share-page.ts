/**
 * Opening share links as a viewer does (seed "What the service does" 4: share links, public or
 * password-protected). The page is the web app's, outside the API, so where it lives comes from the
 * profile (`sharePage`), and its exchanges are kept out of the run's log: the sweeps judge API answers
 * against the contract, and a page that says "wrong password" is HTML, not a problem.
 * @module
 */
import type { CheckContext } from '../checks/types.js';
import { type Exchange, ExchangeLog } from './exchange.js';
import { HttpClient } from './http.js';

/** A log that numbers its exchanges with the run's ids but keeps them to itself. */
class PageLog extends ExchangeLog {
  constructor(private readonly run: ExchangeLog) {
    super();
  }

  override nextId(): number {
    return this.run.nextId();
  }
}

export interface SharePage {
  /** `GET`: what the link shows at once. */
  open(): Promise<Exchange>;
  /** Sends the password form (`application/x-www-form-urlencoded`, field `password`). */
  enter(password: string): Promise<Exchange>;
}

/** The page of the link `shareUrl`, or `undefined` when the profile does not say where pages open. */
export function sharePageOf(ctx: CheckContext, shareUrl: string): SharePage | undefined {
  const template = ctx.profile.sharePage;
  const token = shareUrl.split('/').filter((segment) => segment !== '').pop();
  if (template === undefined || token === undefined) {
    return undefined;
  }
  const path = template.replace('{token}', encodeURIComponent(token));
  const client = new HttpClient({ ...ctx.anonymous.config, log: new PageLog(ctx.anonymous.config.log), check: ctx.name, credentials: { kind: 'none' } });
  return {
    open: () => client.get(path, { retryRateLimited: false }),
    enter: (password) =>
      client.send({
        method: 'POST',
        path,
        body: new URLSearchParams({ password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        retryRateLimited: false,
      }),
  };
}

/** Why the page checks cannot run on this profile. */
export const noSharePage = 'the share page is outside the API and the profile does not say where it opens links (sharePage, e.g. "/s/{token}")';

/**
 * Whether a page shows the session: answered 200 and names the session's title (the checks' titles hold
 * no character HTML would escape).
 */
export function showsSession(exchange: Exchange, title: string): boolean {
  return exchange.response?.status === 200 && exchange.response.body.includes(title);
}
