/**
 * What the retry and pause checks share (seed "Delivery, retry and pause"): a subscription whose receiver
 * fails every attempt, the schedule's waits, the deliveries listing's attempts, and the wait for the target
 * to settle an attempt before the suite moves its clock.
 * @module
 */
import { pageOf } from '../harness/pages.js';
import { subscribeFor, type Subscription } from '../harness/subscriptions.js';
import type { CheckContext } from '../harness/check.js';

export const minute = 60_000;

/**
 * How much target time before an attempt is due the suite stops fast-forwarding and lets the target's
 * clock run at its normal speed: a server measures an attempt's timeout and lease on its own clock, so an
 * attempt made while the clock runs very fast would outlive them in a few real milliseconds.
 */
export const slackMs = 20_000;

/** A retry schedule as a subscription or the health probe announces it. */
export type Schedule = NonNullable<Subscription['retrySchedule']>;

/** The waits before each retry, in target milliseconds. */
export function waitsOf(schedule: Schedule): number[] {
  return schedule.waits_minutes.slice(0, schedule.max_attempts - 1).map((wait) => wait * minute);
}

/** One attempt as the deliveries listing gives it (`WebhookDeliveryAttempt`). */
export interface Attempt {
  attempt: number;
  delivery_id: string;
  status: string;
  attempted_at: string;
  next_retry_at: string | null;
  response_code: number | null;
}

/**
 * Waits (a few seconds plus the target's pace, at most: a busy machine settles an attempt late) until the
 * listing shows `count` attempts, so no jump of the clock overtakes one in flight.
 */
export async function settled(
  ctx: CheckContext,
  subscription: Pick<Subscription, 'id' | 'endpoint'>,
  count: number,
  deliveryId?: string,
): Promise<void> {
  const until = Date.now() + ctx.pace.wait(3_000);
  while (Date.now() < until) {
    const exchange = await ctx.http.get(`/v1/webhooks/${subscription.id}/deliveries`, { query: { limit: 100 } });
    const items = pageOf(exchange).items as Attempt[];
    if (items.filter((item) => deliveryId === undefined || item.delivery_id === deliveryId).length >= count) {
      return;
    }
    await subscription.endpoint.waitFor(() => false, 25, ctx.signal);
  }
}

/**
 * A check body that makes the target's deliveries fail: it runs with a subscription to
 * `session.cancelled` at a receiver that answers 503 to every attempt, or does not run and each of
 * `requirements` is skipped with the refusal. The subscription is deleted afterwards, however the body
 * ends, so its retries do not outlive the check.
 */
export function withFailingReceiver(
  requirements: readonly string[],
  body: (ctx: CheckContext, failing: Subscription) => Promise<void>,
): (ctx: CheckContext) => Promise<void> {
  return async (ctx) => {
    const failing = await subscribeFor(ctx, requirements, ['session.cancelled'], 503);
    if (failing === undefined) {
      return;
    }
    try {
      await body(ctx, failing);
    } finally {
      await ctx.http.delete(`/v1/webhooks/${failing.id}`);
    }
  };
}
