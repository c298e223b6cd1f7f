/**
 * Watching for one webhook event a check causes (seed "Event types and data"): a subscription to the
 * event on the suite's receiver, then waiting for the delivery whose `data` names what the check made,
 * and judging it (signature, contract schema, the fields that tie it to the cause).
 * @module
 */
import { webhookDelivery } from '../../src/contract/extensions.js';
import type { CheckContext } from './check.js';
import {
  bodyOf,
  deliveryEvidence,
  deliveryHeaders,
  deliverySchemaProblems,
  header,
  signatureValid,
} from './deliveries.js';
import type { Delivery } from './receiver.js';
import { refusalReason, subscribe, type Subscription } from './subscriptions.js';

export type Watch = { subscription: Subscription } | { skip: string };

/**
 * Subscribes to `event`, or says why the check cannot expect it: no event list the profile accepts names
 * it (a target that follows another published list lawfully never sends it), or the target refused the
 * subscription.
 */
export async function watchEvent(ctx: CheckContext, event: string): Promise<Watch> {
  const lists = ctx.profile.eventLists.filter(
    (variant) => webhookDelivery(ctx.contract.document).eventLists.get(variant)?.includes(event) === true,
  );
  if (lists.length === 0) {
    return { skip: `${event} is in no event list the profile accepts (${ctx.profile.eventLists.join(', ')})` };
  }
  const subscribed = await subscribe(ctx, [event]);
  return 'refused' in subscribed
    ? { skip: refusalReason(subscribed.refused) }
    : { subscription: subscribed.subscription };
}

/** The `data` of a delivery of `event`, when it is one. */
export function eventData(delivery: Delivery, event: string): Record<string, unknown> | undefined {
  const body = bodyOf(delivery);
  return body?.['event'] === event && typeof body['data'] === 'object' && body['data'] !== null
    ? (body['data'] as Record<string, unknown>)
    : undefined;
}

/**
 * How long an event the check caused may take to arrive, in real time. The request that causes it has
 * been answered by then, and an event the target queued reaches a receiver on 127.0.0.1 at once; the
 * wait ends as soon as it does, so only an event that never comes waits it out. A slower target gets
 * its pace on top (harness/pace.ts).
 */
const eventWaitMs = 15_000;

/** Waits for deliveries of `event` whose data `matches` (at most `eventWaitMs`, or the session timeout if shorter); returns them. */
export async function awaitEvent(
  ctx: CheckContext,
  subscription: Subscription,
  event: string,
  matches: (data: Record<string, unknown>) => boolean,
): Promise<Delivery[]> {
  const matching = (deliveries: readonly Delivery[]) =>
    deliveries.filter((delivery) => {
      const data = eventData(delivery, event);
      return data !== undefined && matches(data);
    });
  await subscription.endpoint.waitFor(
    (deliveries) => matching(deliveries).length > 0,
    ctx.pace.wait(Math.min(eventWaitMs, ctx.timeouts.sessionMs)),
    ctx.signal,
  );
  return matching(subscription.endpoint.deliveries());
}

/**
 * Records whether `event` was delivered for what the check caused (`matches` picks it out by its data):
 * at least one delivery, each signed with the subscription's secret and valid against the contract.
 */
export async function expectEvent(
  ctx: CheckContext,
  requirement: string,
  subscription: Subscription,
  event: string,
  matches: (data: Record<string, unknown>) => boolean,
  cause: string,
): Promise<Delivery[]> {
  const found = await awaitEvent(ctx, subscription, event, matches);
  const received = subscription.endpoint.deliveries();
  const evidence = received.map((delivery) =>
    deliveryEvidence(ctx.http.config.log, ctx.name, subscription.endpoint.url, delivery),
  );
  const problems = found.flatMap((delivery) => [
    ...(signatureValid(delivery, subscription.secret)
      ? []
      : [`${header(delivery, deliveryHeaders.deliveryId) ?? 'a delivery'}: the signature does not verify`]),
    ...deliverySchemaProblems(ctx.contract, delivery),
  ]);
  ctx.expect(
    requirement,
    found.length > 0 && problems.length === 0,
    {
      kind: 'delivery',
      message:
        found.length === 0
          ? `no ${event} was delivered for ${cause}`
          : `the ${event} delivery for ${cause} is not signed or not valid`,
      expected: `${event}, signed and valid against the contract, for ${cause}`,
      got: found.length === 0 ? received.map((delivery) => bodyOf(delivery) ?? null) : problems,
      evidence,
    },
    `${event} delivered for ${cause}`,
  );
  return found;
}

/**
 * Runs `body` with the subscription `watch` made, or skips `requirement` with the reason it made none;
 * the subscription is deleted once the body is done, so later checks' receivers get no deliveries of it.
 */
export async function withWatch(
  ctx: CheckContext,
  requirement: string,
  watch: Watch,
  body: (ctx: CheckContext, subscription: Subscription) => Promise<void>,
): Promise<void> {
  if ('skip' in watch) {
    ctx.skip(requirement, watch.skip);
    return;
  }
  await body(ctx, watch.subscription);
  await ctx.http.delete(`/v1/webhooks/${watch.subscription.id}`);
}

/** A check body that needs `event` delivered to judge `requirement`: `withWatch` on `watchEvent`. */
export function watching(
  requirement: string,
  event: string,
  body: (ctx: CheckContext, subscription: Subscription) => Promise<void>,
): (ctx: CheckContext) => Promise<void> {
  return async (ctx) => withWatch(ctx, requirement, await watchEvent(ctx, event), body);
}

/** Deletes the subscriptions `watches` made, once the check judged what they received. */
export async function unwatch(ctx: CheckContext, watches: readonly Watch[]): Promise<void> {
  for (const watch of watches) {
    if ('subscription' in watch) {
      await ctx.http.delete(`/v1/webhooks/${watch.subscription.id}`);
    }
  }
}

/** `expectEvent` on what `watch` subscribed, or the skip it carries when it subscribed nothing. */
export async function expectWatchedEvent(
  ctx: CheckContext,
  requirement: string,
  watch: Watch,
  event: string,
  matches: (data: Record<string, unknown>) => boolean,
  cause: string,
): Promise<void> {
  if ('skip' in watch) {
    ctx.skip(requirement, watch.skip);
  } else {
    await expectEvent(ctx, requirement, watch.subscription, event, matches, cause);
  }
}
