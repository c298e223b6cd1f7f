/**
 * Workspace isolation (seed "Authentication" 3), tested with the key of a second workspace: reading,
 * listing, changing, streaming and sharing the first workspace's session, its webhooks and its cursors.
 * Another workspace's resources answer 404 (the catalog's not-found covers "belongs to another workspace"),
 * and no answer may carry the first workspace's data, recognised by a marker unique to the run.
 * @module
 */
import { type Exchange, jsonOf } from '../harness/exchange.js';
import { readEventStream } from '../harness/event-stream.js';
import type { HttpClient } from '../harness/http.js';
import { pageOf, walkList } from '../harness/pages.js';
import { discard, marker, readSession, startBodyA, startSession } from '../harness/sessions.js';
import { streamEventNames } from './sse.js';
import { problemSlug, statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { failure } from '../harness/observations.js';
import { checksOf } from './define.js';

/** Isolation is judged between two workspaces: a target that keeps state, and a key of the second. */
const check = checksOf('isolation', { preconditions: ['live', 'second-key'] });

interface Owned {
  id: string;
  title: string;
}

export async function ownedSession(ctx: CheckContext, purpose: string): Promise<Owned> {
  const title = marker(`isolation ${purpose}`);
  const started = await startSession(ctx.http, ctx.contract, startBodyA(ctx.target.synths, title, 1));
  return { id: started.id, title };
}

export function keyB(ctx: CheckContext): HttpClient {
  return ctx.httpB!;
}

/** A 404 not-found that carries none of the owner's data. */
export function expectHidden(
  ctx: CheckContext,
  requirement: string,
  exchange: Exchange,
  secret: string,
  what: string,
): void {
  const hidden =
    statusOf(exchange) === 404 &&
    problemSlug(exchange) === 'not-found' &&
    !(exchange.response?.body ?? '').includes(secret);
  ctx.expect(
    requirement,
    hidden,
    {
      kind: 'isolation',
      message: `${what} with the other workspace's key answered ${statusOf(exchange)}`,
      expected: '404 not-found without the owner’s data',
      got: {
        status: statusOf(exchange),
        slug: problemSlug(exchange) ?? null,
        showsOwnerData: (exchange.response?.body ?? '').includes(secret),
      },
      evidence: exchange,
    },
    `${what}: 404, nothing shown`,
  );
}

/** Runs each attempt with the other workspace's key and expects it hidden. */
export async function expectAllHidden(
  ctx: CheckContext,
  requirement: string,
  secret: string,
  attempts: ReadonlyArray<[string, () => Promise<Exchange>]>,
): Promise<void> {
  for (const [what, attempt] of attempts) {
    expectHidden(ctx, requirement, await attempt(), secret, what);
  }
}

/** A check of `requirement` on a session of the first workspace made for it (named after it), deleted afterwards. */
function ownedCheck(
  name: string,
  requirement: string,
  title: string,
  judge: (ctx: CheckContext, owned: Owned) => Promise<void>,
) {
  return check(name, [requirement], {
    title,
    async run(ctx) {
      const owned = await ownedSession(ctx, name);
      await judge(ctx, owned);
      await discard(ctx.http, owned.id);
    },
  });
}

export const read = ownedCheck('read', 'ISO-001', "Another workspace's session cannot be read", async (ctx, owned) => {
  const path = `/v1/sessions/${owned.id}`;
  await ctx.http.post(`${path}/decisions`, { decision: `${owned.title}: decided.` });
  await expectAllHidden(ctx, 'ISO-001', owned.title, [
    ...['', '/plan', '/outcomes', '/decisions', '/shares'].map(
      (part) =>
        [`GET /v1/sessions/{id}${part}`, () => keyB(ctx).get(`${path}${part}`)] as [string, () => Promise<Exchange>],
    ),
    ['POST /v1/sessions/{id}/export', () => keyB(ctx).post(`${path}/export`, { format: 'json' })],
  ]);
});

export const list = ownedCheck(
  'list',
  'ISO-002',
  "Listing never shows another workspace's sessions",
  async (ctx, owned) => {
    const walk = await walkList(keyB(ctx), '/v1/sessions', 100, 50);
    const leaked = walk.pages.filter(
      (page) => page.exchange.response?.body.includes(owned.id) || page.exchange.response?.body.includes(owned.title),
    );
    ctx.expect(
      'ISO-002',
      leaked.length === 0 && walk.pages.length > 0,
      {
        kind: 'isolation',
        message: `the other workspace's list ${leaked.length > 0 ? 'shows' : 'could not be read to check for'} the session`,
        expected: 'no page shows it',
        got: { pagesShowingIt: leaked.length, stopped: walk.stopped ?? null },
        evidence: leaked.length > 0 ? leaked.map((page) => page.exchange) : walk.pages.map((page) => page.exchange),
      },
      `${walk.keys.length} sessions over ${walk.pages.length} pages, none of the other workspace`,
    );
  },
);

export const change = ownedCheck(
  'change',
  'ISO-003',
  "Another workspace's session cannot be changed",
  async (ctx, owned) => {
    const path = `/v1/sessions/${owned.id}`;
    await expectAllHidden(ctx, 'ISO-003', owned.title, [
      ['PATCH /v1/sessions/{id}', () => keyB(ctx).patch(path, { title: 'taken over' })],
      ['POST messages /v1/sessions/{id}', () => keyB(ctx).post(`${path}/messages`, { content: 'taken over' })],
      ['POST decisions /v1/sessions/{id}', () => keyB(ctx).post(`${path}/decisions`, { decision: 'taken over' })],
      ['POST fork /v1/sessions/{id}', () => keyB(ctx).post(`${path}/fork`, { context: 'taken over' })],
      ['POST continue /v1/sessions/{id}', () => keyB(ctx).post(`${path}/continue`, {})],
      ['POST cancel /v1/sessions/{id}', () => keyB(ctx).post(`${path}/cancel`, {})],
      ['POST archive /v1/sessions/{id}', () => keyB(ctx).post(`${path}/archive`)],
      ['DELETE /v1/sessions/{id}', () => keyB(ctx).delete(path)],
    ]);
    const { exchange, session } = await readSession(ctx.http, owned.id);
    const decisions = pageOf(await ctx.http.get(`${path}/decisions`)).items;
    ctx.expect(
      'ISO-003',
      session['title'] === owned.title &&
        !['cancelled', 'archived'].includes(String(session.status)) &&
        decisions.length === 0,
      {
        kind: 'isolation',
        message: "the other workspace's attempts changed the session",
        expected: { title: owned.title, decisions: 0, status: 'neither cancelled nor archived' },
        got: { title: session['title'], status: session.status, decisions: decisions.length },
        evidence: exchange,
      },
      'the session is unchanged',
    );
  },
);

export const stream = ownedCheck(
  'stream',
  'ISO-004',
  "Another workspace's session cannot be streamed",
  async (ctx, owned) => {
    const reading = await readEventStream({
      url: ctx.http.url(`/v1/sessions/${owned.id}/events`),
      authorization: keyB(ctx).authorization(),
      log: ctx.http.config.log,
      check: ctx.name,
      eventNames: streamEventNames(ctx.contract),
      terminal: ['session.complete', 'session.failed', 'session.cancelled'],
      timeoutMs: ctx.pace.wait(5_000),
      signal: ctx.signal,
    });
    const first = reading.connections[0]?.exchange;
    if (first !== undefined) {
      expectHidden(ctx, 'ISO-004', first, owned.title, 'GET /v1/sessions/{id}/events');
    }
    ctx.expect(
      'ISO-004',
      reading.events.length === 0,
      {
        kind: 'isolation',
        message: `the other workspace received ${reading.events.length} events`,
        expected: 0,
        got: reading.events.map((event) => event.type),
        evidence: reading.connections.map((connection) => connection.exchange),
      },
      'no event reached the other workspace',
    );
    const summary = await keyB(ctx).get(`/v1/sessions/${owned.id}/summary`, { timeoutMs: ctx.pace.wait(5_000) });
    expectHidden(ctx, 'ISO-004', summary, owned.title, 'GET /v1/sessions/{id}/summary');
  },
);

export const share = ownedCheck(
  'share',
  'ISO-005',
  "Another workspace's session cannot be shared",
  async (ctx, owned) => {
    const attempt = await keyB(ctx).post(`/v1/sessions/${owned.id}/shares`, { access: 'public' });
    expectHidden(ctx, 'ISO-005', attempt, owned.title, 'POST /v1/sessions/{id}/shares');
    const shares = await ctx.http.get(`/v1/sessions/${owned.id}/shares`);
    const created = pageOf(shares).items.length;
    ctx.expect(
      'ISO-005',
      created === 0,
      failure('isolation', 'a share link was created', 0, created, shares),
      'no share link was created',
    );
  },
);

export const webhooks = check('webhooks', ['ISO-006'], {
  title: "Another workspace's webhooks cannot be read or changed",
  async run(ctx) {
    const label = marker('isolation webhook');
    const receiver = await ctx.receiver();
    const created = await ctx.http.post('/v1/webhooks', {
      label,
      url: receiver.endpoint().url,
      events: ['session.complete'],
    });
    const body = (jsonOf(created) ?? {}) as { subscription?: { id?: string }; signing_secret?: string };
    const id = body.subscription?.id;
    if (body.signing_secret !== undefined) {
      ctx.secrets.add(body.signing_secret);
    }
    if (id === undefined) {
      ctx.skip('ISO-006', `the target refused the subscription the check needs (${statusOf(created)})`);
      return;
    }
    for (const [what, attempt] of [
      ['GET', () => keyB(ctx).get(`/v1/webhooks/${id}`)],
      ['PATCH', () => keyB(ctx).patch(`/v1/webhooks/${id}`, { label: 'taken over' })],
      ['GET deliveries', () => keyB(ctx).get(`/v1/webhooks/${id}/deliveries`)],
      ['POST enable', () => keyB(ctx).post(`/v1/webhooks/${id}/enable`)],
      ['DELETE', () => keyB(ctx).delete(`/v1/webhooks/${id}`)],
    ] as Array<[string, () => Promise<Exchange>]>) {
      expectHidden(ctx, 'ISO-006', await attempt(), label, `${what} /v1/webhooks/{id}`);
    }
    const listed = await walkList(keyB(ctx), '/v1/webhooks', 100, 20);
    ctx.expect(
      'ISO-006',
      !listed.keys.includes(id),
      {
        kind: 'isolation',
        message: "the other workspace's list shows the subscription",
        expected: 'absent',
        got: id,
        evidence: listed.pages.map((page) => page.exchange),
      },
      "the other workspace's list does not show the subscription",
    );
    const still = await ctx.http.get(`/v1/webhooks/${id}`);
    ctx.expect(
      'ISO-006',
      statusOf(still) === 200 && (jsonOf(still) as { label?: string } | undefined)?.label === label,
      {
        kind: 'isolation',
        message: 'the subscription was changed or deleted',
        expected: { status: 200, label },
        got: { status: statusOf(still), body: jsonOf(still) ?? null },
        evidence: still,
      },
      'the subscription is unchanged',
    );
    await ctx.http.delete(`/v1/webhooks/${id}`);
  },
});

export const cursor = check('cursor', ['ISO-007'], {
  title: "Another workspace's cursor yields none of its items",
  async run(ctx) {
    const owned = [await ownedSession(ctx, 'cursor'), await ownedSession(ctx, 'cursor')];
    const first = pageOf(await ctx.http.get('/v1/sessions', { query: { limit: 1 } }));
    if (typeof first.nextCursor !== 'string') {
      ctx.skip('ISO-007', 'the first workspace has no second page to take a cursor from');
    } else {
      const replayed = await keyB(ctx).get('/v1/sessions', { query: { limit: 1, cursor: first.nextCursor } });
      const mine = new Set((await walkList(ctx.http, '/v1/sessions', 100, 50)).keys);
      const leaked =
        statusOf(replayed) === 200
          ? pageOf(replayed)
              .items.map((item) => (item as { id?: string }).id)
              .filter((id) => id !== undefined && mine.has(id))
          : [];
      ctx.expect(
        'ISO-007',
        leaked.length === 0,
        {
          kind: 'isolation',
          message: "the cursor gave the other workspace the first workspace's sessions",
          expected: 'none of them (404 preferred)',
          got: leaked,
          evidence: replayed,
        },
        `the cursor used by the other workspace answered ${statusOf(replayed)} without the first workspace's sessions`,
      );
    }
    await Promise.all(owned.map((session) => discard(ctx.http, session.id)));
  },
});

export const isolationChecks = [read, list, change, stream, share, webhooks, cursor];
