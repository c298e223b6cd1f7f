/**
 * The order the contract gives its lists (designed: decisions, share links and webhook subscriptions are
 * listed newest first). Judged by each item's `created_at`, so items made in the same instant may come in
 * either order.
 * @module
 */
import type { Exchange } from '../harness/exchange.js';
import { walkList } from '../harness/pages.js';
import { discard, sessionWithDecisions } from '../harness/sessions.js';
import { subscribeUrl } from '../harness/subscriptions.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

const check = checksOf('pagination');

type Dated = { id?: unknown; created_at?: unknown };

/** The first pair of items (by `created_at`) where an older one comes before a newer one. */
function olderFirst(items: readonly Dated[]): [Dated, Dated] | undefined {
  const times = items.map((item) => Date.parse(String(item.created_at)));
  const index = times.findIndex((time, at) => at > 0 && time > times[at - 1]!);
  return index < 0 ? undefined : [items[index - 1]!, items[index]!];
}

/** Walks `path` (pages of 2) and records whether its items run newest first. */
async function expectNewestFirst(
  ctx: CheckContext,
  path: string,
  what: string,
  wanted: (item: Dated) => boolean,
): Promise<void> {
  const walk = await walkList(ctx.http, path, 2, 50);
  const items = walk.pages.flatMap((page) => page.items as Dated[]).filter(wanted);
  const evidence: Exchange[] = walk.pages.map((page) => page.exchange);
  if (items.length < 2 || items.some((item) => Number.isNaN(Date.parse(String(item.created_at))))) {
    ctx.skip(
      'PAGE-008',
      `${what}: the list did not show the check's items with their created_at (${items.length} found)`,
    );
    return;
  }
  const pair = olderFirst(items);
  ctx.expect(
    'PAGE-008',
    pair === undefined,
    {
      kind: 'sequence',
      message: `${what}: an older item is listed before a newer one`,
      expected: 'newest first',
      got: pair?.map((item) => ({ id: item.id, created_at: item.created_at })) ?? null,
      evidence,
    },
    `${what}: ${items.length} items newest first`,
  );
}

export const newestFirst = check('newest-first', ['PAGE-008'], {
  title: 'Decisions, share links and webhook subscriptions are listed newest first',
  preconditions: ['live'],
  async run(ctx) {
    const session = await sessionWithDecisions(ctx, 'list order', 3, (id) =>
      ctx.http.post(`/v1/sessions/${id}/shares`, { access: 'public' }),
    );
    await expectNewestFirst(ctx, `/v1/sessions/${session.id}/decisions`, 'GET /v1/sessions/{id}/decisions', () => true);
    await expectNewestFirst(ctx, `/v1/sessions/${session.id}/shares`, 'GET /v1/sessions/{id}/shares', () => true);
    const receiver = await ctx.receiver();
    const ids: string[] = [];
    for (let index = 0; index < 2; index++) {
      const { id } = await subscribeUrl(ctx, `list order ${index}`, receiver.endpoint().url, ['session.complete']);
      if (id !== undefined) {
        ids.push(id);
      }
    }
    await expectNewestFirst(ctx, '/v1/webhooks', 'GET /v1/webhooks', (item) => ids.includes(String(item.id)));
    await Promise.all(ids.map((id) => ctx.http.delete(`/v1/webhooks/${id}`)));
    await discard(ctx.http, session.id);
  },
});

export const listOrderChecks = [newestFirst];
