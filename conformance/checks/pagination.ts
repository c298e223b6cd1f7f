/**
 * Cursor pagination: complete walks under concurrent inserts, limit, the terminal null, tampered cursors
 * and every list of the API.
 * @module
 */
import { duplicatesOf, pageOf, walkList } from '../harness/pages.js';
import { discard, marker, startBodyA, sessionWithDecisions, startSession } from '../harness/sessions.js';
import { subscribeUrl } from '../harness/subscriptions.js';
import { expectProblem } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

/** The lists walked hold items the checks create: the checks need a target that keeps them. */
const check = checksOf('pagination', { preconditions: ['live'] });

function cursorCheck(
  ctx: CheckContext,
  requirement: string,
  walk: Awaited<ReturnType<typeof walkList>>,
  list: string,
): void {
  const missing = walk.pages.find((page) => page.nextCursor === undefined && page.exchange.response?.status === 200);
  const early = walk.pages.slice(0, -1).find((page) => typeof page.nextCursor !== 'string');
  const last = walk.pages.at(-1);
  const bad = missing ?? early;
  if (bad !== undefined) {
    ctx.fail(requirement, {
      kind: 'sequence',
      message: `${list}: ${bad === missing ? 'a page has no next_cursor (neither a string nor null)' : 'a page before the last has no string next_cursor'}`,
      expected: 'a string, or null on the last page',
      got: bad.nextCursor ?? 'absent',
      evidence: bad.exchange,
    });
  } else if (walk.complete && last !== undefined) {
    ctx.pass(requirement, `${list}: ${walk.pages.length} pages, next_cursor null on the last`, last.exchange);
  } else {
    ctx.skip(requirement, `${list}: ${walk.stopped ?? 'the walk did not end'}`);
  }
}

export const walkUnderInserts = check('walk-under-inserts', ['PAGE-001', 'PAGE-002'], {
  title: 'A walk finds every earlier item once while another client inserts',
  async run(ctx) {
    const title = marker('pagination');
    const created: string[] = [];
    for (let index = 0; index < 5; index++) {
      created.push(
        (await startSession(ctx.http, ctx.contract, startBodyA(ctx.target.synths, `${title} #${index}`, 1))).id,
      );
    }
    const before = [...created];
    const inserter = ctx.http.forCheck(`${ctx.name} (inserting client)`, ctx.signal);
    const walk = await walkList(ctx.http, '/v1/sessions', 2, 500, async (pageIndex) => {
      if (pageIndex < 3) {
        created.push(
          (
            await startSession(
              inserter,
              ctx.contract,
              startBodyA(ctx.target.synths, `${title} inserted ${pageIndex}`, 1),
            )
          ).id,
        );
      }
    });
    const evidence = walk.pages.map((page) => page.exchange);
    const duplicates = duplicatesOf(walk.keys);
    const missing = before.filter((id) => !walk.keys.includes(id));
    if (duplicates.length > 0) {
      ctx.fail('PAGE-001', {
        kind: 'duplicate',
        message: `${duplicates.length} items appeared on two pages`,
        expected: 'each item once',
        got: duplicates,
        evidence,
      });
    }
    if (walk.complete && missing.length > 0) {
      ctx.fail('PAGE-001', {
        kind: 'gap',
        message: `${missing.length} items created before the walk were never listed`,
        expected: before,
        got: missing,
        evidence,
      });
    }
    if (duplicates.length === 0 && missing.length === 0 && walk.complete) {
      ctx.pass(
        'PAGE-001',
        `${walk.keys.length} items over ${walk.pages.length} pages, each once, with 3 inserts mid-walk`,
      );
    } else if (!walk.complete && duplicates.length === 0) {
      ctx.skip('PAGE-001', `${walk.stopped ?? 'the walk did not end'}`);
    }
    cursorCheck(ctx, 'PAGE-002', walk, 'GET /v1/sessions');
    await Promise.all(created.map((id) => discard(ctx.http, id)));
  },
});

export const limitHonoured = check('limit', ['PAGE-003', 'PAGE-004'], {
  title: 'Pages hold at most limit items, 20 by default',
  async run(ctx) {
    // `limit` is the most a page holds (the contract's Limit parameter): a shorter page while more follow
    // is the implementation's choice, so only the upper bound is judged.
    for (const [path, limit] of [
      ['/synths', 5],
      ['/v1/sessions', 2],
    ] as const) {
      const exchange = await ctx.http.get(path, { query: { limit } });
      const page = pageOf(exchange);
      ctx.expect(
        'PAGE-003',
        exchange.response?.status === 200 && page.items.length <= limit,
        {
          kind: 'limit',
          message: `GET ${path}?limit=${limit} held ${page.items.length} items`,
          expected: `at most ${limit}`,
          got: page.items.length,
          evidence: exchange,
        },
        `GET ${path}?limit=${limit} held ${page.items.length} items`,
      );
    }
    const unbounded = await ctx.http.get('/synths');
    const page = pageOf(unbounded);
    ctx.expect(
      'PAGE-004',
      page.items.length <= 20,
      {
        kind: 'limit',
        message: `GET /synths without limit held ${page.items.length} items`,
        expected: 'at most 20',
        got: page.items.length,
        evidence: unbounded,
      },
      `GET /synths without limit held ${page.items.length} items`,
    );
  },
});

/** Changes one character in the middle, the way a client editing an opaque cursor would. */
function flipped(cursor: string): string {
  const index = Math.floor(cursor.length / 2);
  const replacement = cursor[index] === 'A' ? 'B' : 'A';
  return cursor.slice(0, index) + replacement + cursor.slice(index + 1);
}

export const tamperedCursor = check('tampered-cursor', ['PAGE-005'], {
  title: 'A cursor the list did not issue is 404 not-found',
  async run(ctx) {
    const first = await ctx.http.get('/synths', { query: { limit: 5 } });
    const cursor = pageOf(first).nextCursor;
    if (typeof cursor !== 'string') {
      ctx.skip('PAGE-005', 'GET /synths?limit=5 gave no cursor to alter');
      return;
    }
    for (const [what, altered] of [
      ['one character changed', flipped(cursor)],
      ['a character appended', `${cursor}A`],
      ['not a cursor at all', 'not-a-cursor'],
    ] as const) {
      const exchange = await ctx.http.get('/synths', { query: { limit: 5, cursor: altered } });
      expectProblem(ctx, 'PAGE-005', exchange, 404, 'not-found', `a cursor with ${what}`);
    }
  },
});

export const limitBounds = check('limit-bounds', ['PAGE-006'], {
  title: 'A limit outside 1 to 100 is 400 invalid-request',
  // Refused before any list is read: a mock judges it too.
  preconditions: [],
  async run(ctx) {
    for (const limit of [0, 101]) {
      expectProblem(
        ctx,
        'PAGE-006',
        await ctx.http.get('/v1/sessions', { query: { limit } }),
        400,
        'invalid-request',
        `GET /v1/sessions?limit=${limit}`,
      );
    }
  },
});

export const everyList = check('every-list', ['PAGE-007', 'PAGE-002'], {
  title: 'Every list pages to its end',
  async run(ctx) {
    const session = await sessionWithDecisions(ctx, 'lists', 3);
    await ctx.http.post(`/v1/sessions/${session.id}/shares`, { access: 'public' });
    const receiver = await ctx.receiver();
    const { created: hook, id: hookId } = await subscribeUrl(ctx, 'lists', receiver.endpoint().url, [
      'session.complete',
    ]);
    const lists = ctx.contract.routes.filter((route) => {
      const get = route.operations.get('GET');
      return get !== undefined && JSON.stringify(get.operation.parameters ?? []).includes('/Cursor');
    });
    for (const route of lists) {
      if (route.template.includes('/webhooks/{id}') && hookId === undefined) {
        ctx.skip(
          'PAGE-007',
          `GET ${route.template}: the target refused the subscription it needs (${hook.response?.status})`,
        );
        continue;
      }
      const path = route.template
        .replace('/sessions/{id}', `/sessions/${session.id}`)
        .replace('/webhooks/{id}', `/webhooks/${hookId}`);
      const walk = await walkList(ctx.http, path, 2, 100);
      const duplicates = duplicatesOf(walk.keys);
      const evidence = walk.pages.map((page) => page.exchange);
      if (walk.stopped !== undefined && walk.pages.length < 100) {
        ctx.fail('PAGE-007', {
          kind: 'sequence',
          message: `GET ${route.template}: ${walk.stopped}`,
          expected: 'pages to the end',
          got: walk.stopped,
          evidence,
        });
      } else if (duplicates.length > 0) {
        ctx.fail('PAGE-007', {
          kind: 'duplicate',
          message: `GET ${route.template}: items repeated across pages`,
          expected: 'each item once',
          got: duplicates,
          evidence,
        });
      } else if (walk.complete) {
        ctx.pass('PAGE-007', `GET ${route.template}: ${walk.keys.length} items over ${walk.pages.length} pages`);
      } else {
        ctx.skip('PAGE-007', `GET ${route.template}: ${walk.stopped ?? 'did not end'}`);
      }
      cursorCheck(ctx, 'PAGE-002', walk, `GET ${route.template}`);
    }
    if (hookId !== undefined) {
      await ctx.http.delete(`/v1/webhooks/${hookId}`);
    }
    await discard(ctx.http, session.id);
  },
});

export const paginationChecks = [limitBounds, limitHonoured, tamperedCursor, walkUnderInserts, everyList];
