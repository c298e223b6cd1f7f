/**
 * The session's own webhook events (seed "Events › Event types and data", "States and transitions"),
 * received by the suite's receiver: session.created, session.continued, session.reconvened with the
 * reconvening of a decided session, and session.failed.
 * @module
 */
import { bodyOf, deliveryEvidence, deliverySchemaProblems } from '../harness/deliveries.js';
import { endedSession } from '../harness/completed-session.js';
import { jsonOf } from '../harness/exchange.js';
import type { Delivery } from '../harness/receiver.js';
import { discard, marker, readSession, sessionIdOf, waitUntilEnded } from '../harness/sessions.js';
import { causeCancellation, refusalReason, subscribe, type Subscription } from '../harness/subscriptions.js';
import { type Watch, withWatch } from '../harness/event-watch.js';
import { statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

/** The session's events come from sessions the check runs, delivered to the suite's receiver. */
const check = checksOf('session-events', { preconditions: ['live', 'receiver-reachable'] });

/** The event of a delivered body, in either published envelope (`event` or `type`). */
function eventOf(delivery: Delivery): { event: unknown; data: Record<string, unknown> } {
  const body = bodyOf(delivery) ?? {};
  return { event: body['event'] ?? body['type'], data: (body['data'] ?? {}) as Record<string, unknown> };
}

/**
 * A subscription to the session's own events `events`, or why there is none: the target refused the
 * receiver, or its event list lacks them (a 400).
 */
async function watchSessionEvents(ctx: CheckContext, events: readonly string[]): Promise<Watch> {
  const subscribed = await subscribe(ctx, events);
  if (!('refused' in subscribed)) {
    return subscribed;
  }
  return {
    skip:
      statusOf(subscribed.refused) === 400
        ? `the deployment refuses a subscription to ${events.join(', ')} (400): its event list lacks it`
        : refusalReason(subscribed.refused),
  };
}

/** A check body that judges the delivery of the session's own `events`: `withWatch` on `watchSessionEvents`. */
function subscribedTo(
  events: readonly string[],
  requirement: string,
  body: (ctx: CheckContext, subscription: Subscription) => Promise<void>,
): (ctx: CheckContext) => Promise<void> {
  return async (ctx) => withWatch(ctx, requirement, await watchSessionEvents(ctx, events), body);
}

/** Waits for `event` about `sessionId`; the matching delivery, or `undefined` after the session timeout. */
async function awaitEvent(
  ctx: CheckContext,
  subscription: Subscription,
  event: string,
  sessionId: string,
  timeoutMs = ctx.timeouts.sessionMs,
): Promise<Delivery | undefined> {
  const matches = (one: Delivery): boolean =>
    eventOf(one).event === event && eventOf(one).data['session_id'] === sessionId;
  await subscription.endpoint.waitFor((deliveries) => deliveries.some(matches), timeoutMs, ctx.signal);
  return subscription.endpoint.deliveries().find(matches);
}

/** Records whether `event` arrived for `sessionId`, valid against the contract and with `expected` data. */
async function expectEvent(
  ctx: CheckContext,
  requirement: string,
  subscription: Subscription,
  event: string,
  sessionId: string,
  expected: Record<string, (value: unknown) => boolean>,
  timeoutMs?: number,
): Promise<void> {
  const delivery = await awaitEvent(ctx, subscription, event, sessionId, timeoutMs);
  if (delivery === undefined) {
    ctx.fail(requirement, {
      kind: 'delivery',
      message: `no ${event} arrived for session ${sessionId}`,
      expected: event,
      got: subscription.endpoint.deliveries().map((one) => eventOf(one).event),
    });
    return;
  }
  const { data } = eventOf(delivery);
  const wrong = Object.entries(expected)
    .filter(([name, test]) => !test(data[name]))
    .map(([name]) => name);
  const problems = deliverySchemaProblems(ctx.contract, delivery);
  ctx.expect(
    requirement,
    wrong.length === 0 && problems.length === 0,
    {
      kind: 'delivery',
      message: `${event} arrived with wrong or missing data (${wrong.join(', ')}) or against its schema`,
      expected: Object.keys(expected),
      got: { data, problems },
      evidence: deliveryEvidence(ctx.http.config.log, ctx.name, subscription.endpoint.url, delivery),
    },
    `${event} arrived for ${sessionId} with ${Object.keys(expected).join(', ')}`,
  );
}

/** Real time a delivery may trail one sent after it, on a target that answers at once (harness/pace.ts). */
const outOfOrderGraceMs = 5_000;

const is =
  (wanted: unknown) =>
  (value: unknown): boolean =>
    value === wanted;
const isText = (value: unknown): boolean => typeof value === 'string' && value !== '';

async function completed(
  ctx: CheckContext,
  purpose: string,
  title = marker(purpose),
): Promise<{ id: string; session: Record<string, unknown> }> {
  return endedSession(ctx, title);
}

export const created = check('created', ['SEVT-001'], {
  title: 'Starting a session delivers session.created',
  // session.cancelled, in every event list, marks the end of the session's events: once it arrived, a
  // session.created that has not is judged missing after a short grace for deliveries out of order.
  run: subscribedTo(['session.created', 'session.cancelled'], 'SEVT-001', async (ctx, subscription) => {
    const id = await causeCancellation(ctx);
    await awaitEvent(ctx, subscription, 'session.cancelled', id);
    await subscription.endpoint.waitFor(
      (deliveries) =>
        deliveries.some((one) => eventOf(one).event === 'session.created' && eventOf(one).data['session_id'] === id),
      ctx.pace.wait(outOfOrderGraceMs),
      ctx.signal,
    );
    await expectEvent(ctx, 'SEVT-001', subscription, 'session.created', id, { session_id: is(id) }, 0);
  }),
});

export const continued = check('continued', ['SEVT-002'], {
  title: 'Continuing a session delivers session.continued',
  run: subscribedTo(['session.continued'], 'SEVT-002', async (ctx, subscription) => {
    const { id, session } = await completed(ctx, 'continued event');
    const answer = await ctx.http.post(`/v1/sessions/${id}/continue`, { rounds: 1 });
    if (statusOf(answer) !== 202) {
      ctx.skip(
        'SEVT-002',
        `continuing the ${String(session.status)} session answered ${statusOf(answer)} (LIFE-005 judges that)`,
      );
    } else {
      const next = Number(session['rounds'] ?? session['current_round']) + 1;
      await expectEvent(ctx, 'SEVT-002', subscription, 'session.continued', id, {
        session_id: is(id),
        round_number: is(next),
      });
    }
    await discard(ctx.http, id);
  }),
});

export const reconvene = check('reconvene', ['SEVT-003', 'SEVT-004'], {
  title: 'Reconvening a decided session creates a new round session and delivers session.reconvened',
  async run(ctx) {
    const watch = await watchSessionEvents(ctx, ['session.reconvened']);
    const source = await completed(ctx, 'reconvene');
    if (source.session.status !== 'complete') {
      ['SEVT-003', 'SEVT-004'].forEach((id) =>
        ctx.skip(id, `the source session ended ${String(source.session.status)}, not decided`),
      );
      return;
    }
    const answer = await ctx.http.post(`/v1/sessions/${source.id}/reconvene`, {});
    const newId = sessionIdOf(jsonOf(answer));
    if (
      !ctx.expect('SEVT-003', statusOf(answer) === 202 && newId !== undefined && newId !== source.id, {
        kind: 'status',
        message: `reconvening a decided session answered ${statusOf(answer)}`,
        expected: '202 with a new session id',
        got: jsonOf(answer) ?? statusOf(answer),
        evidence: answer,
      })
    ) {
      ctx.skip('SEVT-004', 'no session was reconvened');
      return;
    }
    const after = await waitUntilEnded(ctx, newId!);
    const { exchange } = await readSession(ctx.http, newId!);
    const sourceRounds = Number(source.session['rounds']);
    ctx.expect(
      'SEVT-003',
      after['source_session_id'] === source.id &&
        after.status === 'complete' &&
        Number(after['current_round']) > sourceRounds,
      {
        kind: 'state',
        message:
          'the reconvened session does not name its source, does not continue the round count, or did not run to its end',
        expected: { source_session_id: source.id, status: 'complete', current_round: `above ${sourceRounds}` },
        got: {
          source_session_id: after['source_session_id'] ?? null,
          status: after.status,
          current_round: after['current_round'] ?? null,
        },
        evidence: exchange,
      },
      `reconvened into ${newId}, which names its source and completed round ${String(after['current_round'])}`,
    );
    await withWatch(ctx, 'SEVT-004', watch, (_, subscription) =>
      expectEvent(ctx, 'SEVT-004', subscription, 'session.reconvened', newId!, {
        session_id: is(newId),
        source_session_id: is(source.id),
        round_number: is(sourceRounds + 1),
      }),
    );
  },
});

export const failed = check('failed', ['SEVT-005'], {
  title: 'A run that errors ends failed and delivers session.failed',
  run: subscribedTo(['session.failed'], 'SEVT-005', async (ctx, subscription) => {
    // The reference server's failure marker (docs/simulator.md); a target without one runs the session normally.
    const { id, session } = await completed(ctx, 'failure', `${marker('failure')} [simulate:upstream_error]`);
    if (session.status !== 'failed') {
      ctx.skip(
        'SEVT-005',
        `the session ended ${String(session.status)}: the target offers no way to make a run fail on demand (the reference server fails one whose title holds [simulate:upstream_error])`,
      );
    } else {
      await expectEvent(ctx, 'SEVT-005', subscription, 'session.failed', id, {
        session_id: is(id),
        error_code: isText,
        error_message: isText,
      });
    }
  }),
});

export const sessionEventChecks = [created, continued, reconvene, failed];
