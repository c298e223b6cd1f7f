/**
 * Webhook retries and the pause breaker (seed "Delivery, retry and pause" 1-3). The schedule spans 81 or
 * 321 minutes; on a target with time control the suite paces the target's clock so each wait takes under
 * a second of real time, and measures the waits on the target's own clock (the `attempted_at` of the
 * deliveries listing). Without time control it follows the schedule in real time as far as the run's
 * real-time budget allows (`--real-time-budget`, bounded by `--timeout`; harness/pace.ts), and says what it
 * skipped and which budget would check it.
 * @module
 */
import { deliveryContent, deliveryEvidence, deliveryHeaders, header, signatureValid } from '../harness/deliveries.js';
import { type Exchange, jsonOf } from '../harness/exchange.js';
import { pageOf } from '../harness/pages.js';
import type { RetryScheduleName } from '../harness/profiles.js';
import type { Delivery } from '../harness/receiver.js';
import { marker } from '../harness/sessions.js';
import {
  causeCancellation,
  subscribe,
  subscribeFor,
  type Subscription,
  targetTimeOf,
} from '../harness/subscriptions.js';
import { statusOf } from './problem-shape.js';
import { delay } from '../harness/http.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';
import { create } from './webhook-subscriptions.js';

/** Retries are deliveries to the suite's receiver from a target that keeps its subscriptions. */
const check = checksOf('webhooks', { preconditions: ['live', 'receiver-reachable'] });

const minute = 60_000;
/** Real time the suite budgets for each wait when the target's clock can be changed. */
const paceRealMs = 800;
/** Real-time lateness the measurement allows per wait (timers, the receiver's round trip, a busy machine). */
const jitterRealMs = 250;
/** Real time between two attempts that lets their whole-second timestamps differ. */
const resignGapMs = 2_000;
/**
 * How much target time before an attempt is due the suite stops fast-forwarding and lets the target's
 * clock run at its normal speed: a server measures an attempt's timeout and lease on its own clock, so an
 * attempt made while the clock runs very fast would outlive them in a few real milliseconds.
 */
const slackMs = 20_000;

type Schedule = NonNullable<Subscription['retrySchedule']>;

function scheduleName(schedule: Schedule): RetryScheduleName | undefined {
  const waits = schedule.waits_minutes.join(',');
  return waits === '1,5,15,60' && schedule.max_attempts === 5
    ? 'four-waits'
    : waits === '1,5,15,60,240' && schedule.max_attempts === 6
      ? 'five-waits'
      : undefined;
}

/** The waits before each retry, in target milliseconds. */
function waitsOf(schedule: Schedule): number[] {
  return schedule.waits_minutes.slice(0, schedule.max_attempts - 1).map((wait) => wait * minute);
}

interface Attempt {
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
async function settled(
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

async function attemptsOf(
  ctx: CheckContext,
  subscription: Subscription,
  deliveryId: string | undefined,
): Promise<{ attempts: Attempt[]; exchange: Awaited<ReturnType<CheckContext['http']['get']>> }> {
  const exchange = await ctx.http.get(`/v1/webhooks/${subscription.id}/deliveries`, { query: { limit: 100 } });
  const attempts = (pageOf(exchange).items as Attempt[])
    .filter((item) => item.delivery_id === deliveryId)
    .sort((a, b) => a.attempt - b.attempt);
  return { attempts, exchange };
}

/**
 * A check body that makes the target's deliveries fail: it runs with a subscription to
 * `session.cancelled` at a receiver that answers 503 to every attempt, or does not run and each of
 * `requirements` is skipped with the refusal. The subscription is deleted afterwards, however the body
 * ends, so its retries do not outlive the check.
 */
function withFailingReceiver(
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

export const retrySchedule = check('retry-schedule', ['HOOK-008', 'HOOK-010', 'HOOK-013'], {
  title: 'A failing receiver gets retries on the published schedule',
  phase: 'exclusive',
  run: withFailingReceiver(['HOOK-008', 'HOOK-010', 'HOOK-013'], async (ctx, failing) => {
    const recovering = await subscribe(ctx, ['session.cancelled'], (_, index) => (index === 0 ? 500 : 204));
    try {
      await run(ctx, failing, 'subscription' in recovering ? recovering.subscription : undefined);
    } finally {
      if ('subscription' in recovering) {
        await ctx.http.delete(`/v1/webhooks/${recovering.subscription.id}`);
      }
    }
  }),
});

async function run(ctx: CheckContext, failing: Subscription, recovering: Subscription | undefined): Promise<void> {
  const schedule = failing.retrySchedule ?? ctx.target.announced.retrySchedule;
  if (schedule === undefined) {
    ['HOOK-008', 'HOOK-010', 'HOOK-013'].forEach((requirement) =>
      ctx.skip(requirement, 'neither the subscription nor the health probe names a retry schedule'),
    );
    return;
  }
  const name = scheduleName(schedule);
  ctx.expect(
    'HOOK-008',
    name !== undefined && ctx.profile.retrySchedules.includes(name),
    {
      kind: 'variant',
      message: `the subscription follows ${name ?? 'an unpublished schedule'}`,
      expected: ctx.profile.retrySchedules,
      got: schedule,
      evidence: failing.exchange,
    },
    `the subscription follows the ${name} schedule`,
  );
  const waits = waitsOf(schedule);
  const realTime = !ctx.clock.controllable;
  const spanRealMs = ctx.clock.realMs(waits.reduce((sum, wait) => sum + wait, 0)) * 1.3;
  const followable = !realTime || spanRealMs <= ctx.pace.scheduleBudgetMs();
  if (!followable && recovering !== undefined) {
    // The schedule cannot be followed to its end: HOOK-010 is judged on a first attempt answered 2xx
    // (not 200), watched past the first wait instead of on a retry answered 2xx.
    recovering.endpoint.answerWith(202);
  }
  ctx.extendLimit(Math.min(spanRealMs, ctx.pace.scheduleBudgetMs()));
  await causeCancellation(ctx);
  const first = await failing.endpoint.waitFor(
    (deliveries) => deliveries.length >= 1,
    ctx.timeouts.sessionMs,
    ctx.signal,
  );
  if (!first) {
    ctx.fail('HOOK-008', {
      kind: 'delivery',
      message: 'the first attempt never arrived',
      expected: 'a delivery of session.cancelled',
      got: 0,
    });
    return;
  }
  const deliveryId = header(failing.endpoint.deliveries()[0]!, deliveryHeaders.deliveryId);
  const paces: number[] = [];
  let budget = ctx.pace.scheduleBudgetMs();
  let complete = true;
  for (const [index, waitMs] of waits.entries()) {
    const realWait = ctx.clock.controllable ? paceRealMs : ctx.clock.realMs(waitMs);
    if (!ctx.clock.controllable && realWait * 1.3 > budget) {
      complete = false;
      ctx.skip(
        'HOOK-008',
        `${ctx.clock.known ? `at the target's fixed time scale ${ctx.clock.scale()}` : 'target has no time control:'} the retry after ${waitMs / minute} min would take ${Math.round(realWait / 1000)} s of real time, beyond what is left of the real-time budget (${Math.round(budget / 1000)} s of --real-time-budget)`,
      );
      break;
    }
    budget -= realWait;
    paces.push(ctx.clock.scale());
    if (ctx.clock.controllable) {
      if (index === 0) {
        // Timestamps are whole wall-clock seconds: the first retry comes two real seconds after the first
        // attempt at least, so its new timestamp can show that it was signed anew (HOOK-013).
        const sinceFirst = Date.now() - failing.endpoint.deliveries()[0]!.receivedAt;
        await ctx.clock.withScale(1, () => delay(Math.max(0, resignGapMs - sinceFirst), ctx.signal));
      }
      // Fast-forward to just before the attempt is due; the attempt itself happens at normal speed.
      await settled(ctx, failing, index + 1, deliveryId);
      await ctx.clock.elapse(Math.max(0, waitMs - slackMs), ctx.signal);
    }
    const arrived = await failing.endpoint.waitFor(
      (deliveries) => deliveries.length >= index + 2,
      ctx.clock.realMs(ctx.clock.controllable ? slackMs : waitMs) * 2 + 2_000,
      ctx.signal,
    );
    if (!arrived) {
      ctx.fail('HOOK-008', {
        kind: 'delivery',
        message: `attempt ${index + 2} did not arrive after the ${waitMs / minute}-minute wait`,
        expected: schedule.max_attempts,
        got: failing.endpoint.deliveries().length,
        evidence: failing.endpoint
          .deliveries()
          .map((one) => deliveryEvidence(ctx.http.config.log, ctx.name, failing.endpoint.url, one)),
      });
      complete = false;
      break;
    }
  }
  if (complete) {
    // After the last attempt the delivery is marked failed: nothing arrives within another longest wait.
    const lastWait = waits.at(-1) ?? minute;
    if (ctx.clock.controllable) {
      await settled(ctx, failing, schedule.max_attempts, deliveryId);
      await ctx.clock.elapse(lastWait * 1.5, ctx.signal);
    } else {
      await failing.endpoint.waitFor(() => false, ctx.clock.realMs(lastWait * 1.5), ctx.signal);
    }
    const extra = failing.endpoint.deliveries().length > schedule.max_attempts;
    ctx.expect(
      'HOOK-008',
      !extra,
      {
        kind: 'delivery',
        message: 'an attempt arrived after the schedule was used up',
        expected: schedule.max_attempts,
        got: failing.endpoint.deliveries().length,
      },
      `no attempt after the ${schedule.max_attempts}th`,
    );
  }
  const { attempts, exchange } = await attemptsOf(ctx, failing, deliveryId);
  checkMeasuredWaits(ctx, attempts, waits, paces, exchange, complete, schedule);
  checkResigning(ctx, failing, complete);
  if (recovering === undefined) {
    ctx.skip('HOOK-010', 'the target refused the second subscription');
    return;
  }
  if (!followable) {
    await judgeFirstTwoXx(ctx, recovering, waits[0] ?? minute);
    return;
  }
  if (!complete) {
    ctx.skip('HOOK-010', 'the schedule could not be followed to its end');
    return;
  }
  const answered = recovering.endpoint.deliveries().map((one) => one.answered);
  ctx.expect(
    'HOOK-010',
    answered.length === 2 && answered[1] === 204,
    {
      kind: 'delivery',
      message: 'a delivery answered 204 was retried, or never retried after its 500',
      expected: [500, 204],
      got: answered,
      evidence: recovering.endpoint
        .deliveries()
        .map((one) => deliveryEvidence(ctx.http.config.log, ctx.name, recovering.endpoint.url, one)),
    },
    'answered 500 then 204: retried once, then complete',
  );
}

/**
 * HOOK-010 in real time: the recovering endpoint answered its first attempt 202, so nothing more may come
 * for that delivery; watching past the first wait (with the pace's margin) would see a retry.
 */
async function judgeFirstTwoXx(ctx: CheckContext, recovering: Subscription, firstWaitMs: number): Promise<void> {
  const watchMs = ctx.pace.wait(ctx.clock.realMs(firstWaitMs) * 1.5);
  const first = recovering.endpoint.deliveries()[0];
  if (first === undefined) {
    ctx.skip('HOOK-010', 'the delivery to the endpoint answering 202 never arrived');
    return;
  }
  const left = first.receivedAt + watchMs - Date.now();
  if (left > 0 && !ctx.pace.allows(left, 0)) {
    ctx.skip(
      'HOOK-010',
      `watching past the first retry wait (${Math.round(watchMs / 1000)} s of real time) does not fit in what is left of the run`,
      'give the run more time with --timeout',
    );
    return;
  }
  if (left > 0 && left > ctx.pace.scheduleBudgetMs()) {
    ctx.skip(
      'HOOK-010',
      `watching past the first retry wait takes ${Math.round(watchMs / 1000)} s of real time, more than --real-time-budget allows`,
      `--real-time-budget ${Math.ceil(watchMs / 1000) + 10} (the target's own retry wait, watched in real time), or a target whose clock the suite can move (reference server: \`boardkit serve --test-control\`)`,
    );
    return;
  }
  await recovering.endpoint.waitFor((deliveries) => deliveries.length > 1, Math.max(0, left), ctx.signal);
  const answered = recovering.endpoint.deliveries().map((one) => one.answered);
  ctx.expect(
    'HOOK-010',
    answered.length === 1,
    {
      kind: 'delivery',
      message: 'a delivery answered 202 was delivered again',
      expected: [202],
      got: answered,
      evidence: recovering.endpoint
        .deliveries()
        .map((one) => deliveryEvidence(ctx.http.config.log, ctx.name, recovering.endpoint.url, one)),
    },
    `answered 202, then nothing more for ${Math.round(watchMs / 1000)} s (past the first retry wait)`,
  );
}

function checkMeasuredWaits(
  ctx: CheckContext,
  attempts: Attempt[],
  waits: number[],
  paces: number[],
  exchange: Awaited<ReturnType<CheckContext['http']['get']>>,
  complete: boolean,
  schedule: Schedule,
): void {
  const measured = attempts
    .slice(1)
    .map((attempt, index) => Date.parse(attempt.attempted_at) - Date.parse(attempts[index]!.attempted_at));
  const wrong = measured.flatMap((gap, index) => {
    const expected = waits[index];
    const pace = paces[index];
    if (expected === undefined || pace === undefined) {
      return [];
    }
    // The lateness allowed grows with the target's round trips: each wait ends with a change of its clock.
    const tolerance = expected * 0.2 + (jitterRealMs + 4 * ctx.pace.latencyMs) * pace;
    return Math.abs(gap - expected) <= tolerance
      ? []
      : [{ attempt: index + 2, waitedMinutes: +(gap / minute).toFixed(2), expectedMinutes: expected / minute }];
  });
  const scheduled = attempts
    .slice(0, -1)
    .every((attempt) => attempt.status === 'retry_scheduled' && attempt.next_retry_at !== null);
  const lastOk = !complete || (attempts.length === schedule.max_attempts && attempts.at(-1)?.status === 'exhausted');
  ctx.expect(
    'HOOK-008',
    wrong.length === 0 && scheduled && lastOk && attempts.length >= paces.length + 1,
    {
      kind: 'timing',
      message: 'the attempts listed do not follow the schedule',
      expected: {
        waitsMinutes: waits.map((wait) => wait / minute),
        lastStatus: complete ? 'exhausted' : 'retry_scheduled',
      },
      got: {
        wrong,
        attempts: attempts.map(({ attempt, status, attempted_at, next_retry_at }) => ({
          attempt,
          status,
          attempted_at,
          next_retry_at,
        })),
      },
      evidence: exchange,
    },
    `${attempts.length} attempts listed, waits ${measured.map((gap) => (gap / minute).toFixed(1)).join(', ')} min`,
  );
  if (!complete && attempts.length === 1) {
    const planned =
      attempts[0]!.next_retry_at === null
        ? Number.NaN
        : Date.parse(attempts[0]!.next_retry_at) - Date.parse(attempts[0]!.attempted_at);
    ctx.expect(
      'HOOK-008',
      Math.abs(planned - (waits[0] ?? 0)) <= (waits[0] ?? 0) * 0.2,
      {
        kind: 'timing',
        message: 'the first retry is not scheduled after the first wait',
        expected: (waits[0] ?? 0) / minute,
        got: planned / minute,
        evidence: exchange,
      },
      `the first retry is scheduled ${(planned / minute).toFixed(1)} min after the first attempt`,
    );
  }
}

function checkResigning(ctx: CheckContext, failing: Subscription, complete: boolean): void {
  const deliveries: readonly Delivery[] = failing.endpoint.deliveries();
  if (deliveries.length < 2) {
    ctx.skip('HOOK-013', complete ? 'fewer than two attempts arrived' : 'no retry arrived within the real-time budget');
    return;
  }
  const ids = new Set(deliveries.map((one) => header(one, deliveryHeaders.deliveryId)));
  const stamps = deliveries.map((one) => Number(header(one, deliveryHeaders.timestamp)));
  // Timestamps are whole wall-clock seconds, so on a sped-up target two attempts may be signed within one
  // second: they must never go back, and must move on between attempts that arrived two seconds apart.
  const apart = deliveries.flatMap((one, index) =>
    index > 0 && one.receivedAt - deliveries[index - 1]!.receivedAt >= resignGapMs ? [index] : [],
  );
  const increasing =
    stamps.every((stamp, index) => index === 0 || stamp >= stamps[index - 1]!) &&
    apart.every((index) => stamps[index]! > stamps[index - 1]!);
  if (apart.length === 0) {
    ctx.skip(
      'HOOK-013',
      'no two attempts arrived two seconds apart, so their whole-second timestamps cannot show a new signing',
    );
  }
  const signed = deliveries.every((one) => signatureValid(one, failing.secret));
  // The published envelope counts attempts in `delivery_attempt`; everything else stays the same.
  const sameBody = new Set(deliveries.map(deliveryContent)).size === 1;
  ctx.expect(
    'HOOK-013',
    ids.size === 1 && increasing && signed && sameBody,
    {
      kind: 'signature',
      message: 'the retries change their delivery id or body, or are not signed anew',
      expected: {
        deliveryIds: 1,
        timestamps: 'never decreasing, and later two seconds on',
        signatures: 'valid',
        body: 'unchanged',
      },
      got: { deliveryIds: [...ids], timestamps: stamps, signaturesValid: signed, sameBody },
      evidence: deliveries.map((one) => deliveryEvidence(ctx.http.config.log, ctx.name, failing.endpoint.url, one)),
    },
    `${deliveries.length} attempts share one delivery id, each signed anew`,
  );
}

export const pause = check('pause', ['HOOK-009', 'HOOK-014', 'HOOK-018'], {
  title: '10 consecutive failed deliveries pause the subscription',
  phase: 'exclusive',
  run: withFailingReceiver(['HOOK-009', 'HOOK-014', 'HOOK-018'], async (ctx, subscription) => {
    // A second subscription, made at the unversioned path, fails alike and is re-enabled there (HOOK-018).
    const unversioned =
      statusOf(await ctx.http.get('/webhooks', { query: { limit: 1 } })) === 404
        ? undefined
        : await create(ctx, '/webhooks', marker('pause, unversioned'), ['session.cancelled'], 503);
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
        await settled(ctx, subscription, 10 * (round + 1));
        if (unversioned !== undefined && 'id' in unversioned) {
          await settled(ctx, unversioned, 10 * (round + 1));
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
      if (unversioned !== undefined && 'id' in unversioned) {
        await ctx.http.delete(`/v1/webhooks/${unversioned.id}`);
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

export const webhookRetryChecks = [retrySchedule, pause];
