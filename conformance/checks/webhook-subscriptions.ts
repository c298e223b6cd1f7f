/**
 * Managing webhook subscriptions (seed "Endpoints": `/api/webhooks` manages them; "Versioning" 1: the
 * resource paths written without the version segment): the update, and the unversioned paths acting on
 * the same subscriptions as `/v1/webhooks`.
 * @module
 */
import { type Exchange, jsonOf } from '../harness/exchange.js';
import type { HttpClient } from '../harness/http.js';
import { walkList } from '../harness/pages.js';
import type { Answer, ReceiverEndpoint } from '../harness/receiver.js';
import { marker } from '../harness/sessions.js';
import { statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';
import { failure } from '../harness/observations.js';

/** Subscriptions are state: the checks need a target that keeps it. */
const check = checksOf('webhooks', { preconditions: ['live'] });

interface SubscriptionBody {
  id?: unknown;
  label?: unknown;
  url?: unknown;
  events?: unknown;
}

/** The subscription a create or read answered (`{subscription}` on create, the record on read). */
export function subscriptionOf(exchange: Exchange): SubscriptionBody {
  const body = (jsonOf(exchange) ?? {}) as SubscriptionBody & {
    subscription?: SubscriptionBody;
    signing_secret?: unknown;
  };
  return body.subscription ?? body;
}

/** Creates a subscription at `path` (`/v1/webhooks` or `/webhooks`) to a receiver endpoint answering `answer`. */
export async function create(
  ctx: CheckContext,
  path: string,
  label: string,
  events: string[],
  answer: Answer = 200,
): Promise<{ id: string; exchange: Exchange; endpoint: ReceiverEndpoint } | { refused: Exchange }> {
  const endpoint = (await ctx.receiver()).endpoint(answer);
  const exchange = await ctx.http.post(path, { label, url: endpoint.url, events });
  const secret = (jsonOf(exchange) as { signing_secret?: unknown } | undefined)?.signing_secret;
  if (typeof secret === 'string') {
    ctx.secrets.add(secret);
  }
  const id = subscriptionOf(exchange).id;
  return statusOf(exchange) === 201 && typeof id === 'string' ? { id, exchange, endpoint } : { refused: exchange };
}

const sameSet = (a: unknown, b: readonly string[]): boolean =>
  Array.isArray(a) && a.length === b.length && b.every((one) => a.includes(one));

export const update = check('update', ['HOOK-015'], {
  title: 'PATCH changes the label and the event filter of a subscription',
  async run(ctx) {
    const created = await create(ctx, '/v1/webhooks', marker('webhook update'), ['session.complete']);
    if ('refused' in created) {
      ctx.skip('HOOK-015', `the target refused a subscription to the suite's receiver (${statusOf(created.refused)})`);
      return;
    }
    try {
      const label = marker('webhook updated');
      const events = ['session.complete', 'session.cancelled'];
      const patched = await ctx.http.patch(`/v1/webhooks/${created.id}`, { label, events });
      const read = await ctx.http.get(`/v1/webhooks/${created.id}`);
      const now = subscriptionOf(read);
      ctx.expect(
        'HOOK-015',
        statusOf(patched) === 200 &&
          now.label === label &&
          sameSet(now.events, events) &&
          now.url === created.endpoint.url,
        {
          kind: 'state',
          message: `after PATCH (${statusOf(patched)}) the subscription reads label ${JSON.stringify(now.label)}, events ${JSON.stringify(now.events)}`,
          expected: { status: 200, label, events, url: created.endpoint.url },
          got: { status: statusOf(patched), label: now.label, events: now.events, url: now.url },
          evidence: [patched, read],
        },
        'the new label and event filter read back, the URL kept',
      );
    } finally {
      await ctx.http.delete(`/v1/webhooks/${created.id}`);
    }
  },
});

async function listed(client: HttpClient, path: string, id: string): Promise<boolean> {
  const walk = await walkList(client, path, 100, 50);
  return walk.pages.some((page) => page.items.some((item) => (item as { id?: unknown }).id === id));
}

export const unversionedPaths = check('unversioned-paths', ['HOOK-016', 'HOOK-017'], {
  title: 'The unversioned /webhooks paths act on the subscriptions of /v1/webhooks',
  async run(ctx) {
    const probe = await ctx.http.get('/webhooks', { query: { limit: 1 } });
    if (statusOf(probe) === 404) {
      ['HOOK-016', 'HOOK-017'].forEach((id) =>
        ctx.skip(id, 'the target does not serve the unversioned /webhooks paths (GET /webhooks answered 404)'),
      );
      return;
    }
    const label = marker('unversioned webhook');
    const created = await create(ctx, '/webhooks', label, ['session.complete']);
    if ('refused' in created) {
      const status = statusOf(created.refused);
      ctx.fail('HOOK-016', failure('status', `POST /webhooks answered ${status}`, 201, status, created.refused));
      ctx.skip('HOOK-017', 'no subscription could be created at /webhooks');
      return;
    }
    let deleted = false;
    try {
      const versioned = await ctx.http.get(`/v1/webhooks/${created.id}`);
      const unversioned = await ctx.http.get(`/webhooks/${created.id}`);
      const [inVersioned, inUnversioned] = [
        await listed(ctx.http, '/v1/webhooks', created.id),
        await listed(ctx.http, '/webhooks', created.id),
      ];
      ctx.expect(
        'HOOK-016',
        statusOf(versioned) === 200 &&
          subscriptionOf(versioned).label === label &&
          statusOf(unversioned) === 200 &&
          subscriptionOf(unversioned).id === created.id &&
          inVersioned &&
          inUnversioned,
        {
          kind: 'state',
          message: `a subscription created at /webhooks reads ${statusOf(versioned)} at /v1/webhooks/{id} and ${statusOf(unversioned)} at /webhooks/{id}; listed at /v1/webhooks: ${inVersioned}, at /webhooks: ${inUnversioned}`,
          expected: { versioned: 200, unversioned: 200, listedInBoth: true },
          got: { versioned: statusOf(versioned), unversioned: statusOf(unversioned), inVersioned, inUnversioned },
          evidence: [created.exchange, versioned, unversioned],
        },
        'created at /webhooks, read and listed alike at both paths',
      );
      const renamed = marker('unversioned webhook renamed');
      const patched = await ctx.http.patch(`/webhooks/${created.id}`, { label: renamed });
      const afterPatch = await ctx.http.get(`/v1/webhooks/${created.id}`);
      const removed = await ctx.http.delete(`/webhooks/${created.id}`);
      const afterDelete = await ctx.http.get(`/v1/webhooks/${created.id}`);
      deleted = statusOf(afterDelete) === 404;
      ctx.expect(
        'HOOK-017',
        statusOf(patched) === 200 &&
          subscriptionOf(afterPatch).label === renamed &&
          statusOf(removed) === 204 &&
          deleted,
        {
          kind: 'state',
          message: `PATCH /webhooks/{id} answered ${statusOf(patched)} and /v1/webhooks/{id} then read label ${JSON.stringify(subscriptionOf(afterPatch).label)}; DELETE /webhooks/{id} answered ${statusOf(removed)} and /v1/webhooks/{id} then ${statusOf(afterDelete)}`,
          expected: { patch: 200, label: renamed, delete: 204, afterDelete: 404 },
          got: {
            patch: statusOf(patched),
            label: subscriptionOf(afterPatch).label,
            delete: statusOf(removed),
            afterDelete: statusOf(afterDelete),
          },
          evidence: [patched, afterPatch, removed, afterDelete],
        },
        'the update and the delete at /webhooks show at /v1/webhooks',
      );
    } finally {
      if (!deleted) {
        await ctx.http.delete(`/v1/webhooks/${created.id}`);
      }
    }
  },
});

export const webhookSubscriptionChecks = [update, unversionedPaths];
