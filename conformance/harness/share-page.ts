/**
 * Opening share links as a viewer does (seed "What the service does" 4: share links, public or
 * password-protected). The page is the web app's, outside the API. It opens from the URL the API returns
 * in `Share.url`, in every profile: first that URL's path on the target's own host (where a deployment
 * that serves its pages itself, like the reference server, has them), then the URL itself; a profile may
 * name the place instead (`sharePage`, `--share-page`). Its exchanges are kept out of the run's log: the
 * sweeps judge API answers against the contract, and a page that says "wrong password" is HTML, not a
 * problem.
 * @module
 */
import type { CheckContext } from './check.js';
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

interface PageLocation {
  client: HttpClient;
  path: string;
}

/** Where the link may open, in the order tried: the profile's place, or the URL's path on the target, then the URL. */
function candidates(ctx: CheckContext, shareUrl: string, token: string): PageLocation[] {
  const client = (baseUrl: string): HttpClient =>
    new HttpClient({
      ...ctx.anonymous.config,
      baseUrl,
      log: new PageLog(ctx.anonymous.config.log),
      check: ctx.name,
      credentials: { kind: 'none' },
    });
  const onTarget = client(ctx.anonymous.config.baseUrl);
  const template = ctx.profile.sharePage;
  if (template !== undefined) {
    return [{ client: onTarget, path: template.replace('{token}', encodeURIComponent(token)) }];
  }
  const url = new URL(shareUrl, `${ctx.anonymous.config.baseUrl.replace(/\/+$/, '')}/`);
  const path = `${url.pathname}${url.search}`;
  const own = { client: onTarget, path };
  return url.origin === new URL(ctx.anonymous.config.baseUrl).origin
    ? [own]
    : [own, { client: client(url.origin), path }];
}

/**
 * Whether an answer comes from a page: not a 404, and not JSON (an API that routes every unknown path to
 * a 401 problem, say, has no page there).
 */
function isPage(exchange: Exchange): boolean {
  return (
    exchange.response !== undefined &&
    exchange.response.status !== 404 &&
    !/json/i.test(exchange.response.headers['content-type'] ?? '')
  );
}

/**
 * The page of the link `shareUrl`, or `undefined` when the link has no token to open. The first place
 * whose answer is a page is where the page lives; when none is, the last answer stands.
 */
export function sharePageOf(ctx: CheckContext, shareUrl: string): SharePage | undefined {
  const token = shareUrl
    .split('/')
    .filter((segment) => segment !== '')
    .pop();
  if (token === undefined) {
    return undefined;
  }
  const places = candidates(ctx, shareUrl, token);
  let found: PageLocation | undefined;
  const locate = async (): Promise<{ place: PageLocation; opened: Exchange }> => {
    for (const [index, place] of places.entries()) {
      const last = index === places.length - 1;
      try {
        const opened = await place.client.get(place.path, { retryRateLimited: false });
        if (isPage(opened) || last) {
          found = place;
          return { place, opened };
        }
      } catch (error) {
        if (last) {
          throw error;
        }
      }
    }
    throw new Error('no place to open the share page');
  };
  return {
    open: async () =>
      found === undefined ? (await locate()).opened : found.client.get(found.path, { retryRateLimited: false }),
    enter: async (password) => {
      const place = found ?? (await locate()).place;
      return place.client.send({
        method: 'POST',
        path: place.path,
        body: new URLSearchParams({ password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        retryRateLimited: false,
      });
    },
  };
}

/** Why the page checks cannot run: the API gave no link to open. */
export const noSharePage = 'the share link has no URL to open (Share.url is missing or empty)';

/**
 * Whether a page shows the session: answered 200 and names the session's title (the checks' titles hold
 * no character HTML would escape).
 */
export function showsSession(exchange: Exchange, title: string): boolean {
  return exchange.response?.status === 200 && exchange.response.body.includes(title);
}
