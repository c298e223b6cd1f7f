/**
 * Webhook retries (seed "Delivery, retry and pause" 1-2): a failing delivery is retried on the published
 * schedule, which spans 81 or 321 minutes, with one delivery id, signed anew each time, and a 2xx ends it.
 * On a target with time control the suite paces the target's clock so each wait takes under a second of
 * real time, and measures the waits on the target's own clock (the `attempted_at` of the deliveries
 * listing). Without time control it follows the schedule in real time as far as the run's real-time budget
 * allows (`--real-time-budget`, bounded by `--timeout`; harness/pace.ts), and says what it skipped and
 * which budget would check it.
 * @module
 */
import { deliveryContent, deliveryEvidence, deliveryHeaders, header, signatureValid } from '../harness/deliveries.js';
import { pageOf } from '../harness/pages.js';
import type { RetryScheduleName } from '../harness/profiles.js';
import type { Delivery } from '../harness/receiver.js';
import { causeCancellation, subscribe, type Subscription } from '../harness/subscriptions.js';
import { delay } from '../harness/http.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';
import {
  type Attempt,
  minute,
  type Schedule,
  settled,
  slackMs,
  waitsOf,
  withFailingReceiver,
} from './failing-deliveries.js';

/** Retries are deliveries to the suite's receiver from a target that keeps its subscriptions. */
const check = checksOf('webhooks', { preconditions: ['live', 'receiver-reachable'] });

/** Real time the suite budgets for each wait when the target's clock can be changed. */
const paceRealMs = 800;
/** Real-time lateness the measurement allows per wait (timers, the receiver's round trip, a busy machine). */
const jitterRealMs = 250;
/** Real time between two attempts that lets their whole-second timestamps differ. */
const resignGapMs = 2_000;

function scheduleName(schedule: Schedule): RetryScheduleName | undefined {
  const waits = schedule.waits_minutes.join(',');
  return waits === '1,5,15,60' && schedule.max_attempts === 5
    ? 'four-waits'
    : waits === '1,5,15,60,240' && schedule.max_attempts === 6
      ? 'five-waits'
      : undefined;
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

export const webhookRetryChecks = [retrySchedule];
