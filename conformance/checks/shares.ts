/**
 * Share links (seed "What the service does" 4, "Endpoints"): created public or password-protected,
 * listed, revoked; opened through the web app's share page as a viewer would; announced by `share.created`
 * and `share.viewed` (event list variants 3 and 4).
 * @module
 */
import { expectEvent, expectWatchedEvent, unwatch, watchEvent } from '../harness/event-watch.js';
import { type Exchange, jsonOf } from '../harness/exchange.js';
import { contractLimits } from '../../src/contract/extensions.js';
import { walkList } from '../harness/pages.js';
import { noSharePage, type SharePage, sharePageOf, showsSession } from '../harness/share-page.js';
import { discard, marker, startBodyA, startSession } from '../harness/sessions.js';
import { expectProblem, statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { atRealSpeed, checksOf } from './define.js';

/** Share links are made on sessions the checks start: the checks need a target that keeps state. */
const check = checksOf('shares', { preconditions: ['live'] });

interface ShareBody {
  id?: unknown;
  url?: unknown;
  access?: unknown;
  revoked_at?: unknown;
  view_count?: unknown;
  created_at?: unknown;
}

const password = 'amber-falcon-conformance';

async function sharedSession(ctx: CheckContext, purpose: string): Promise<{ id: string; title: string }> {
  const title = marker(purpose);
  const started = await startSession(ctx.http, ctx.contract, startBodyA(ctx.target.synths, title, 1));
  return { id: started.id, title };
}

async function createShare(
  ctx: CheckContext,
  sessionId: string,
  access: 'public' | 'password',
): Promise<{ exchange: Exchange; share: ShareBody }> {
  const exchange = await ctx.http.post(
    `/v1/sessions/${sessionId}/shares`,
    access === 'public' ? { access } : { access, password },
  );
  return { exchange, share: jsonOf(exchange) ?? {} };
}

async function listedShares(
  ctx: CheckContext,
  sessionId: string,
): Promise<{ exchanges: Exchange[]; items: ShareBody[] }> {
  const walk = await walkList(ctx.http, `/v1/sessions/${sessionId}/shares`, 100, 20);
  return {
    exchanges: walk.pages.map((page) => page.exchange),
    items: walk.pages.flatMap((page) => page.items) as ShareBody[],
  };
}

/** The share page of a link, as a viewer opens it, or `undefined` when the API gave the link no URL to open. */
function linkPage(ctx: CheckContext, share: ShareBody): SharePage | undefined {
  return typeof share.url === 'string' ? sharePageOf(ctx, share.url) : undefined;
}

interface OpenedLink {
  session: { id: string; title: string };
  share: ShareBody;
  page: SharePage;
}

/**
 * A check body that opens, as a viewer would, the share page of a new `access` link to a new session
 * titled after `purpose` (seed "What the service does" 4). Without a page to open, `requirement` is
 * skipped and the body does not run; the session is discarded once the body is done.
 */
function onSharePage(
  requirement: string,
  purpose: string,
  access: 'public' | 'password',
  body: (ctx: CheckContext, link: OpenedLink) => Promise<void>,
): (ctx: CheckContext) => Promise<void> {
  return async (ctx) => {
    const session = await sharedSession(ctx, purpose);
    const { share } = await createShare(ctx, session.id, access);
    const page = linkPage(ctx, share);
    if (page === undefined) {
      ctx.skip(requirement, noSharePage);
    } else {
      await body(ctx, { session, share, page });
    }
    await discard(ctx.http, session.id);
  };
}

export const createAndList = check('create-and-list', ['SHARE-001', 'SHARE-002'], {
  title: 'Public and password links are created and listed; the password never comes back',
  async run(ctx) {
    const session = await sharedSession(ctx, 'shares');
    const created = [await createShare(ctx, session.id, 'public'), await createShare(ctx, session.id, 'password')];
    const listed = await listedShares(ctx, session.id);
    const expected = [{ access: 'public' }, { access: 'password' }];
    const ok = created.every(
      ({ exchange, share }, index) =>
        statusOf(exchange) === 201 &&
        share.access === expected[index]!.access &&
        listed.items.some((item) => item.id === share.id),
    );
    ctx.expect(
      'SHARE-001',
      ok,
      {
        kind: 'state',
        message: 'a share link was not created with its access, or is not listed',
        expected: expected.map((one) => ({ status: 201, ...one, listed: true })),
        got: created.map(({ exchange, share }) => ({
          status: statusOf(exchange),
          access: share.access ?? null,
          listed: listed.items.some((item) => item.id === share.id),
        })),
        evidence: [...created.map(({ exchange }) => exchange), ...listed.exchanges],
      },
      'a public and a password link created and listed',
    );
    const shown = [...created.map(({ exchange }) => exchange), ...listed.exchanges].filter((exchange) =>
      exchange.response?.body.includes(password),
    );
    ctx.expect(
      'SHARE-002',
      shown.length === 0,
      {
        kind: 'leak',
        message: 'the password of a protected link is returned',
        expected: 'never returned',
        got: `${shown.length} answers hold it`,
        evidence: shown,
      },
      'the password is in no answer',
    );
    await discard(ctx.http, session.id);
  },
});

export const revoke = check('revoke', ['SHARE-003', 'SHARE-006', 'SHARE-009'], {
  title: 'A revoked link is marked revoked and opens nothing',
  async run(ctx) {
    const session = await sharedSession(ctx, 'revoked share');
    const { share } = await createShare(ctx, session.id, 'public');
    const answer = await ctx.http.post(`/v1/sessions/${session.id}/shares/${String(share.id)}/revoke`);
    const listed = await listedShares(ctx, session.id);
    const inList = listed.items.find((item) => item.id === share.id);
    const revokedAt = (jsonOf(answer) as ShareBody | undefined)?.revoked_at;
    ctx.expect(
      'SHARE-003',
      statusOf(answer) === 200 && typeof revokedAt === 'string' && typeof inList?.revoked_at === 'string',
      {
        kind: 'state',
        message: `revoking answered ${statusOf(answer)}; the link is not marked revoked`,
        expected: { status: 200, revoked_at: 'a timestamp', listed: { revoked_at: 'a timestamp' } },
        got: { status: statusOf(answer), revoked_at: revokedAt ?? null, listed: inList ?? null },
        evidence: [answer, ...listed.exchanges],
      },
      `revoked at ${String(revokedAt)}`,
    );
    expectProblem(
      ctx,
      'SHARE-009',
      await ctx.http.post(`/v1/sessions/${session.id}/shares/${String(share.id)}/revoke`),
      409,
      'conflict',
      'revoking a revoked link',
    );
    const page = linkPage(ctx, share);
    if (page === undefined) {
      ctx.skip('SHARE-006', noSharePage);
    } else {
      const opened = await page.open();
      ctx.expect(
        'SHARE-006',
        !showsSession(opened, session.title),
        {
          kind: 'state',
          message: 'the revoked link still opens the session',
          expected: 'the session not shown',
          got: { status: statusOf(opened) },
          evidence: opened,
        },
        `the revoked link answers ${statusOf(opened)} without the session`,
      );
    }
    await discard(ctx.http, session.id);
  },
});

export const pagePublic = check('page-public', ['SHARE-004'], {
  title: 'A public link opens the session',
  run: onSharePage('SHARE-004', 'public share', 'public', async (ctx, { session, page }) => {
    const opened = await page.open();
    ctx.expect(
      'SHARE-004',
      showsSession(opened, session.title),
      {
        kind: 'state',
        message: `the public link answered ${statusOf(opened)} without the session`,
        expected: { status: 200, shows: session.title },
        got: { status: statusOf(opened), body: opened.response?.body.slice(0, 300) ?? null },
        evidence: opened,
      },
      'the public link shows the session',
    );
  }),
});

export const pagePassword = check('page-password', ['SHARE-005'], {
  title: 'A protected link opens only with the right password',
  run: onSharePage('SHARE-005', 'protected share', 'password', async (ctx, { session, page }) => {
    const asked = await page.open();
    const wrong = await page.enter('not-the-password-at-all');
    const right = await page.enter(password);
    const refusedWrong = (statusOf(wrong) ?? 0) >= 400 && !showsSession(wrong, session.title);
    ctx.expect(
      'SHARE-005',
      !showsSession(asked, session.title) && refusedWrong && showsSession(right, session.title),
      {
        kind: 'state',
        message:
          'the protected link showed the session without the right password, refused a wrong one with no error, or did not open with the right one',
        expected: {
          withoutPassword: 'not shown',
          wrongPassword: 'a 4xx without the session',
          rightPassword: '200 with the session',
        },
        got: {
          withoutPassword: showsSession(asked, session.title) ? 'shown' : statusOf(asked),
          wrongPassword: showsSession(wrong, session.title) ? 'shown' : statusOf(wrong),
          rightPassword: showsSession(right, session.title) ? 'shown' : statusOf(right),
        },
        evidence: [asked, wrong, right],
      },
      'nothing without the password, a wrong one refused, the right one opens',
    );
  }),
});

export const shareEvents = check('events', ['SHARE-007', 'SHARE-008'], {
  title: 'share.created and share.viewed are delivered',
  preconditions: ['live', 'receiver-reachable'],
  async run(ctx) {
    const [created, viewed] = [await watchEvent(ctx, 'share.created'), await watchEvent(ctx, 'share.viewed')];
    const session = await sharedSession(ctx, 'share events');
    const { share } = await createShare(ctx, session.id, 'public');
    const ofShare = (data: Record<string, unknown>) =>
      data['share_id'] === share.id && data['session_id'] === session.id;
    await expectWatchedEvent(ctx, 'SHARE-007', created, 'share.created', ofShare, `share link ${String(share.id)}`);
    const page = linkPage(ctx, share);
    if ('skip' in viewed || page === undefined) {
      ctx.skip('SHARE-008', 'skip' in viewed ? viewed.skip : noSharePage);
    } else {
      const views = [await page.open(), await page.open()];
      // Views may be sampled: at least one event, never more than the views, each counting no further than them.
      const deliveries = await expectEvent(
        ctx,
        'SHARE-008',
        viewed.subscription,
        'share.viewed',
        ofShare,
        `two views of ${String(share.id)}`,
      );
      const counts = deliveries.map(
        (delivery) =>
          (JSON.parse(delivery.rawBody.toString('utf8')) as { data: { view_count?: unknown } }).data.view_count,
      );
      const listed = (await listedShares(ctx, session.id)).items.find((item) => item.id === share.id);
      ctx.expect(
        'SHARE-008',
        deliveries.length <= views.length &&
          counts.every(
            (count) => Number.isInteger(count) && (count as number) >= 1 && (count as number) <= views.length,
          ) &&
          listed?.view_count === views.length,
        {
          kind: 'delivery',
          message: 'share.viewed came more often than the link was viewed, or the views are miscounted',
          expected: {
            events: `1 to ${views.length}`,
            view_count: `1 to ${views.length} in each, ${views.length} in the list`,
          },
          got: { events: deliveries.length, view_counts: counts, listed: listed?.view_count ?? null },
          evidence: views,
        },
        `${deliveries.length} share.viewed for ${views.length} views, counted ${String(listed?.view_count)}`,
      );
    }
    await unwatch(ctx, [created, viewed]);
    await discard(ctx.http, session.id);
  },
});

/** More wrong passwords than any limit on guessing should allow in one window. */
const guesses = 20;

/**
 * Why the right password opening the link proves nothing, if it does not: the target's clock passed the
 * whole guessing window (`x-limits.share_password_guesses`) while the guesses were made, so the count
 * rightly started again. A target sped up without a clock the suite can set shows it: a link made after
 * the guesses is dated a window or more after the first. `undefined` when the window cannot have passed.
 */
async function windowPassed(ctx: CheckContext, sessionId: string, first: ShareBody): Promise<string | undefined> {
  if (ctx.clock.controllable) {
    return undefined;
  }
  const { share: later } = await createShare(ctx, sessionId, 'public');
  const elapsedMs = Date.parse(String(later.created_at)) - Date.parse(String(first.created_at));
  const { windowMs } = contractLimits(ctx.contract.document).sharePasswordGuesses;
  return Number.isFinite(elapsedMs) && elapsedMs >= windowMs
    ? `the target's clock passed ${Math.round(elapsedMs / 60_000)} minutes during the guesses (its links' created_at), more than the ${windowMs / 60_000}-minute guessing window: its clock runs faster than real time, so the count may rightly have started again`
    : undefined;
}

export const passwordGuesses = check('password-guesses', ['SHARE-010'], {
  title: 'Password guessing on a protected link is limited',
  // The guesses are counted in a window of the target's time: at real speed, so the window outlasts them.
  phase: 'exclusive',
  run: atRealSpeed(
    onSharePage('SHARE-010', 'guessed share', 'password', async (ctx, { session, share, page }) => {
      const wrong: Exchange[] = [];
      for (let index = 0; index < guesses; index++) {
        wrong.push(await page.enter(`wrong-guess-${index}`));
      }
      const right = await page.enter(password);
      const passed = showsSession(right, session.title) ? await windowPassed(ctx, session.id, share) : undefined;
      if (passed !== undefined) {
        ctx.skip('SHARE-010', passed);
        return;
      }
      ctx.expect(
        'SHARE-010',
        !showsSession(right, session.title),
        {
          kind: 'state',
          message: `after ${guesses} wrong passwords the right one still opened the link at once`,
          expected: 'every password refused until the window ends',
          got: { wrong: wrong.map(statusOf), right: statusOf(right) },
          evidence: [...wrong.slice(-2), right],
        },
        `after ${guesses} wrong passwords even the right one was refused (${statusOf(right)})`,
      );
    }),
  ),
});

export const shareChecks = [createAndList, revoke, pagePublic, pagePassword, shareEvents, passwordGuesses];
