/**
 * The pause breaker (seed "Delivery, retry and pause" 3): ten deliveries that use up their schedule pause
 * the subscription, nothing is delivered while it is paused, and re-enabling it (at `/v1/webhooks` or the
 * unversioned path) resets the breaker. On a target with time control the suite moves the target's clock
 * through the schedule's rounds; without it, it follows them in real time as far as the run's real-time
 * budget allows (`--real-time-budget`; harness/pace.ts), or says which budget would check it.
 * @module
 */
import { deliveryHeaders, header } from '../harness/deliveries.js';
import { type Exchange, jsonOf } from '../harness/exchange.js';
import { marker } from '../harness/sessions.js';
import { causeCancellation, type Subscription, targetTimeOf } from '../harness/subscriptions.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';
import { minute, settled, slackMs, waitsOf, withFailingReceiver } from './failing-deliveries.js';
import { statusOf } from './problem-shape.js';
import { create } from './webhook-subscriptions.js';

/** The breaker counts deliveries to the suite's receiver from a target that keeps its subscriptions. */
const check = checksOf('webhooks', { preconditions: ['live', 'receiver-reachable'] });

export const pause = check('pause', ['HOOK-009', 'HOOK-014', 'HOOK-018'], {
  title: '10 consecutive failed deliveries pause the subscription',
  phase: 'exclusive',
  run: withFailingReceiver(['HOOK-009', 'HOOK-014', 'HOOK-018'], async (ctx, subscription) => {
    // A second subscription, made at the unversioned path, fails alike and is re-enabled there (HOOK-018).
    const unversioned =
      statusOf(await ctx.http.get('/webhooks', { query: { limit: 1 } })) === 404
        ? undefined
        : await create(ctx, '/webhooks', marker('pause, unversioned'), ['session.cancelled'], 503);
    const second = unversioned !== undefined && 'id' in unversioned ? unversioned : undefined;
    // Every round of both is settled before the clock moves on, so no jump overtakes an attempt in flight.
    const failingSubscriptions = second === undefined ? [subscription] : [subscription, second];
    try {
      const schedule = subscription.retrySchedule ??
        ctx.target.announced.retrySchedule ?? { waits_minutes: [1, 5, 15, 60, 240], max_attempts: 6 };
      const spanMs = waitsOf(schedule).reduce((sum, wait) => sum + wait, 0);
      // In real time the ten deliveries fail side by side: the whole schedule once, then the pause is read.
      const neededMs = ctx.clock.realMs(spanMs * 1.2) + 3 * minute;
      if (!ctx.clock.controllable && neededMs > ctx.pace.scheduleBudgetMs()) {
        const seconds = Math.ceil(neededMs / 1000);
        ['HOOK-009', 'HOOK-014', 'HOOK-018'].forEach((requirement) =>
          ctx.skip(
            requirement,
            `10 failed deliveries need ${spanMs / minute} minutes of the target's time, ${seconds} s of real time at its time scale ${ctx.clock.scale()}: more than the real-time budget (--real-time-budget) or what is left of the run`,
            `--real-time-budget ${seconds} --timeout ${seconds + 1200} (follows the target's own schedule in real time), or a target whose clock the suite can move (reference server: \`boardkit serve --test-control\`)`,
          ),
        );
        return;
      }
      if (!ctx.clock.controllable) {
        ctx.extendLimit(neededMs);
      }
      for (let index = 0; index < 10; index++) {
        await causeCancellation(ctx);
      }
      const distinct = (): number =>
        new Set(subscription.endpoint.deliveries().map((one) => header(one, deliveryHeaders.deliveryId))).size;
      await subscription.endpoint.waitFor(() => distinct() >= 10, ctx.timeouts.sessionMs, ctx.signal);
      // The ten first attempts are spread over a little target time; each later round of attempts is too.
      const toTarget = await targetTimeOf(ctx);
      const firsts = subscription.endpoint.deliveries().map((one) => toTarget(one.receivedAt));
      const [earliest, latest] = [Math.min(...firsts), Math.max(...firsts)];
      let due = 0;
      for (const [round, waitMs] of waitsOf(schedule).entries()) {
        due += waitMs;
        for (const failing of failingSubscriptions) {
          await settled(ctx, failing, 10 * (round + 1));
        }
        // Fast-forward to just before a round falls due, then run at normal speed until it is over.
        await ctx.clock.elapse(Math.max(0, earliest + due - slackMs - (await ctx.clock.now())), ctx.signal);
        await ctx.clock.elapse(
          Math.max(0, latest + due + slackMs - (await ctx.clock.now())),
          ctx.signal,
          ctx.clock.scale(),
        );
      }
      const read = await pausedRead(ctx, subscription, 10 * schedule.max_attempts);
      const state = (jsonOf(read) ?? {}) as { status?: unknown; consecutive_failures?: unknown; paused_at?: unknown };
      const attempts = subscription.endpoint.deliveries().length;
      ctx.expect(
        'HOOK-009',
        state.status === 'paused' && state.consecutive_failures === 10 && typeof state.paused_at === 'string',
        {
          kind: 'state',
          message: `after 10 failed deliveries (${attempts} attempts received) the subscription is ${String(state.status)}`,
          expected: { status: 'paused', consecutive_failures: 10, paused_at: 'a timestamp' },
          got: state,
          evidence: read,
        },
        `paused after 10 failed deliveries (${attempts} attempts received)`,
      );
      const before = subscription.endpoint.deliveries().length;
      await causeCancellation(ctx);
      await ctx.clock.elapse(2 * minute, ctx.signal, ctx.clock.scale());
      const after = subscription.endpoint.deliveries().length;
      ctx.expect(
        'HOOK-009',
        after === before,
        { kind: 'delivery', message: 'a paused subscription still received a delivery', expected: before, got: after },
        'nothing was delivered while paused',
      );
      const enabled = await ctx.http.post(`/v1/webhooks/${subscription.id}/enable`);
      const enabledState = (jsonOf(enabled) ?? {}) as { status?: unknown; consecutive_failures?: unknown };
      subscription.endpoint.answerWith(200);
      await causeCancellation(ctx);
      // A cancellation is delivered at once; a few seconds are plenty for a subscription that resumed.
      const resumed = await subscription.endpoint.waitFor(
        (deliveries) => deliveries.slice(after).some((one) => one.answered === 200),
        5_000,
        ctx.signal,
      );
      ctx.expect(
        'HOOK-014',
        enabled.response?.status === 200 &&
          enabledState.status === 'active' &&
          enabledState.consecutive_failures === 0 &&
          resumed,
        {
          kind: 'state',
          message: 're-enabling did not reset the breaker and resume deliveries',
          expected: { status: 'active', consecutive_failures: 0, delivered: true },
          got: { ...enabledState, delivered: resumed },
          evidence: enabled,
        },
        're-enabled: active, breaker reset, deliveries resumed',
      );
      await reenableUnversioned(ctx, unversioned, 10 * schedule.max_attempts);
    } finally {
      if (second !== undefined) {
        await ctx.http.delete(`/v1/webhooks/${second.id}`);
      }
    }
  }),
});

/**
 * The read of a subscription once it paused, or once a bounded wait ran out. Its last attempts (ten
 * deliveries' schedules make `attempts`) may still be on the wire, or, for a subscription whose deliveries
 * began a little after those the clock was moved by, still due: while they have not all arrived the
 * target's time moves on a minute at a time, a few times, while the run allows.
 */
async function pausedRead(
  ctx: CheckContext,
  subscription: Pick<Subscription, 'id' | 'endpoint'>,
  attempts: number,
): Promise<Exchange> {
  const paused = (exchange: Exchange): boolean =>
    (jsonOf(exchange) as { status?: unknown } | undefined)?.status === 'paused';
  let read = await ctx.http.get(`/v1/webhooks/${subscription.id}`);
  let moves = 0;
  for (const until = Date.now() + ctx.pace.wait(5_000); !paused(read) && Date.now() < until;) {
    const arrived = await subscription.endpoint.waitFor(
      (deliveries) => deliveries.length >= attempts,
      ctx.pace.wait(1_000),
      ctx.signal,
    );
    if (arrived) {
      await subscription.endpoint.waitFor(() => false, 100, ctx.signal);
    } else if (moves < 5 && ctx.pace.allows(minute)) {
      moves++;
      await ctx.clock.elapse(minute, ctx.signal);
    }
    read = await ctx.http.get(`/v1/webhooks/${subscription.id}`);
  }
  return read;
}

/** HOOK-018: the subscription made at `/webhooks` paused with the first; re-enabled at `/webhooks/{id}/enable`. */
async function reenableUnversioned(
  ctx: CheckContext,
  unversioned: Awaited<ReturnType<typeof create>> | undefined,
  attempts: number,
): Promise<void> {
  if (unversioned === undefined) {
    ctx.skip('HOOK-018', 'the target does not serve the unversioned /webhooks paths (GET /webhooks answered 404)');
    return;
  }
  if ('refused' in unversioned) {
    ctx.fail('HOOK-018', {
      kind: 'status',
      message: `POST /webhooks answered ${statusOf(unversioned.refused)}`,
      expected: 201,
      got: statusOf(unversioned.refused),
      evidence: unversioned.refused,
    });
    return;
  }
  const paused = await pausedRead(ctx, unversioned, attempts);
  const enabled = await ctx.http.post(`/webhooks/${unversioned.id}/enable`);
  const read = await ctx.http.get(`/v1/webhooks/${unversioned.id}`);
  const [before, after] = [
    (jsonOf(paused) ?? {}) as { status?: unknown },
    (jsonOf(read) ?? {}) as { status?: unknown; consecutive_failures?: unknown },
  ];
  ctx.expect(
    'HOOK-018',
    before.status === 'paused' &&
      statusOf(enabled) === 200 &&
      after.status === 'active' &&
      after.consecutive_failures === 0,
    {
      kind: 'state',
      message: `a subscription ${String(before.status)} after 10 failed deliveries, re-enabled at /webhooks/{id}/enable (${statusOf(enabled)}), reads ${String(after.status)} at /v1/webhooks/{id}`,
      expected: { before: 'paused', enable: 200, after: { status: 'active', consecutive_failures: 0 } },
      got: { before: before.status, enable: statusOf(enabled), after },
      evidence: [paused, enabled, read],
    },
    'paused alike, and re-enabled at /webhooks/{id}/enable: active, breaker reset',
  );
}

export const webhookPauseChecks = [pause];
