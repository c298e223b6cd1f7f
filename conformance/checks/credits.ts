/**
 * Credits (seed "What the service does" 8, "Errors", "States and transitions"): a session's charge in the
 * ledger and the balance, `402 insufficient-credits`, the cancellation's reconciliation, and no per-call
 * surcharge. They read the balance before and after, so they run alone (`exclusive`), and they judge the
 * balance by the ledger's new entries, so work left over from other checks cannot mislead them.
 * @module
 */
import { entriesOf, readCredits, readCreditsAround, sumOf } from '../harness/credits.js';
import { endedSession } from '../harness/completed-session.js';
import { parseEventStream } from '../../src/contract/sse.js';
import { awaitEvent, eventData, watchEvent } from '../harness/event-watch.js';
import { type Exchange, jsonOf } from '../harness/exchange.js';
import { onPoorWorkspace } from '../harness/key-control.js';
import { discardStarted, marker, readSession, startBodyA, startMarkedSession } from '../harness/sessions.js';
import { expectProblem, statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

/** Charges and balances are state: the credit checks need a target that keeps it. */
const check = checksOf('credits', { preconditions: ['live'] });

export const sessionCharge = check('session-charge', ['CRED-001'], {
  title: "A session's charge is in the ledger and the balance falls by it",
  phase: 'exclusive',
  async run(ctx) {
    const { before, after, fresh, result } = await readCreditsAround(ctx.http, () =>
      endedSession(ctx, marker('credits')),
    );
    const charged = result.session['credits_charged'];
    const own = entriesOf(after, result.id);
    ctx.expect(
      'CRED-001',
      Number.isInteger(charged) && own.length > 0 && -sumOf(own) === charged,
      {
        kind: 'state',
        message: "the session's ledger entries do not add up to its credits_charged",
        expected: { credits_charged: charged ?? 'an integer', entries: 'adding up to minus it' },
        got: own,
        evidence: after.exchange,
      },
      `${own.length} entries for the session add up to -${String(charged)}`,
    );
    if (fresh === undefined) {
      ctx.note('more ledger entries than one page arrived meanwhile: the balance is judged by the session alone');
      return;
    }
    ctx.expect(
      'CRED-001',
      after.balance - before.balance === sumOf(fresh),
      {
        kind: 'state',
        message: 'the balance did not change by what the new ledger entries say',
        expected: before.balance + sumOf(fresh),
        got: after.balance,
        evidence: [before.exchange, after.exchange],
      },
      `the balance went from ${before.balance} to ${after.balance}, as the ${fresh.length} new entries say`,
    );
  },
});

export const insufficient = check('insufficient', ['CRED-002'], {
  title: 'A start the balance does not cover is 402 insufficient-credits',
  // A workspace of its own with a balance below any session's estimate (test control provisions it).
  run: onPoorWorkspace('CRED-002', async (ctx, poor) => {
    const before = await readCredits(poor.http);
    const answer = await poor.http.post('/v1/sessions', startBodyA(ctx.target.synths, marker('insufficient'), 2));
    if (
      !expectProblem(
        ctx,
        'CRED-002',
        answer,
        402,
        'insufficient-credits',
        `a start with a balance of ${before.balance}`,
      )
    ) {
      await discardStarted(poor.http, answer);
      return;
    }
    const body = (jsonOf(answer) ?? {}) as {
      session_estimate_credits?: unknown;
      balance_credits?: unknown;
      topup_url?: unknown;
    };
    const estimate = body.session_estimate_credits;
    const balance = body.balance_credits;
    const url = typeof body.topup_url === 'string' && URL.canParse(body.topup_url);
    ctx.expect(
      'CRED-002',
      Number.isInteger(estimate) &&
        Number.isInteger(balance) &&
        (estimate as number) > (balance as number) &&
        balance === before.balance &&
        url,
      {
        kind: 'problem',
        message: 'the 402 lacks the estimate, the balance or the top-up URL, or they disagree',
        expected: {
          session_estimate_credits: `an integer above ${before.balance}`,
          balance_credits: before.balance,
          topup_url: 'an absolute URL',
        },
        got: body,
        evidence: answer,
      },
      `402 with an estimate of ${String(estimate)} over a balance of ${String(balance)} and a top-up URL`,
    );
    const after = await readCredits(poor.http);
    const listed = await poor.http.get('/v1/sessions', { query: { limit: 10 } });
    const items = ((jsonOf(listed) ?? {}) as { items?: unknown[] }).items ?? [];
    ctx.expect(
      'CRED-002',
      after.balance === before.balance && items.length === 0,
      {
        kind: 'state',
        message: 'the refused start created a session or spent credits',
        expected: { balance: before.balance, sessions: 0 },
        got: { balance: after.balance, sessions: items.length },
        evidence: [after.exchange, listed],
      },
      'nothing started and nothing spent',
    );
  }),
});

export const cancelReconciliation = check('cancel-reconciliation', ['CRED-003'], {
  title: "A cancellation's reconciliation is in the ledger",
  phase: 'exclusive',
  async run(ctx) {
    const started = await startMarkedSession(ctx, 'credits cancel', 10);
    const cancelled = await ctx.http.post(`/v1/sessions/${started.id}/cancel`, {});
    const { exchange, session } = await readSession(ctx.http, started.id);
    const charged = session['credits_charged'];
    const refunded = session['credits_refunded'];
    if (
      statusOf(cancelled) !== 200 ||
      session.status !== 'cancelled' ||
      !Number.isInteger(charged) ||
      !Number.isInteger(refunded)
    ) {
      ctx.skip(
        'CRED-003',
        `the session was not cancelled with a reconciliation (cancel answered ${statusOf(cancelled)}; LIFE-007 judges that)`,
      );
      return;
    }
    const after = await readCredits(ctx.http);
    const own = entriesOf(after, started.id);
    const refund = (refunded as number) === 0 || own.some((entry) => entry.credits === refunded);
    ctx.expect(
      'CRED-003',
      own.length > 0 && -sumOf(own) === charged && refund,
      {
        kind: 'state',
        message: "the ledger does not show the cancelled session's reconciliation",
        expected: { sum: -(charged as number), refund: refunded },
        got: own,
        evidence: [exchange, after.exchange],
      },
      `the ledger shows ${own.length} entries adding up to -${String(charged)}, the refund of ${String(refunded)} among them`,
    );
  },
});

export const noSurcharge = check('no-surcharge', ['CRED-004'], {
  title: 'API calls carry no per-call surcharge',
  phase: 'exclusive',
  async run(ctx) {
    const paths = ['/v1/sessions', '/synths', '/modes', '/integrations', '/credits', '/v1/webhooks'];
    const {
      before,
      after,
      fresh,
      result: reads,
    } = await readCreditsAround(ctx.http, async () => {
      const answers = [];
      for (const path of paths) {
        answers.push(await ctx.http.get(path, path === '/credits' ? {} : { query: { limit: 5 } }));
      }
      return answers;
    });
    if (fresh === undefined) {
      ctx.skip('CRED-004', 'more ledger entries than one page arrived meanwhile (other work of the workspace)');
      return;
    }
    const unexplained = fresh.filter((entry) => entry.session_id === null && entry.credits < 0);
    ctx.expect(
      'CRED-004',
      after.balance - before.balance === sumOf(fresh) && unexplained.length === 0,
      {
        kind: 'state',
        message: 'reads changed the balance beyond what the ledger lists for sessions',
        expected: { balance: before.balance + sumOf(fresh), entriesWithoutSession: [] },
        got: { balance: after.balance, entriesWithoutSession: unexplained },
        evidence: [before.exchange, ...reads, after.exchange],
      },
      `${reads.length + 1} reads: the balance moved only by the ledger's ${fresh.length} session entries`,
    );
  },
});

/** The data of the last `session.cancelled` of a session's stream, read at once (`finite=true`). */
async function streamedCancellation(
  ctx: CheckContext,
  id: string,
): Promise<{ exchange: Exchange; data: Record<string, unknown> | undefined }> {
  const exchange = await ctx.http.get(`/v1/sessions/${id}/events`, {
    query: { finite: 'true' },
    headers: { accept: 'text/event-stream' },
  });
  const last = parseEventStream(exchange.response?.body ?? '')
    .events.filter((event) => event.event === 'session.cancelled')
    .at(-1);
  try {
    return { exchange, data: last === undefined ? undefined : (JSON.parse(last.data) as Record<string, unknown>) };
  } catch {
    return { exchange, data: undefined };
  }
}

export const cancelledAmounts = check('cancelled-amounts', ['CRED-005'], {
  title: 'session.cancelled reports the amounts the ledger reconciled',
  phase: 'exclusive',
  async run(ctx) {
    const watch = await watchEvent(ctx, 'session.cancelled');
    const started = await startMarkedSession(ctx, 'credits cancelled event', 10);
    const cancelled = await ctx.http.post(`/v1/sessions/${started.id}/cancel`, {});
    const own = entriesOf(await readCredits(ctx.http), started.id);
    if (statusOf(cancelled) !== 200 || own.length === 0) {
      ctx.skip(
        'CRED-005',
        `the session was not cancelled with ledger entries to compare with (cancel answered ${statusOf(cancelled)}, ${own.length} entries; LIFE-007 and CRED-003 judge that)`,
      );
      return;
    }
    const charged = -sumOf(own);
    const refunds = own.filter((entry) => entry.credits > 0).map((entry) => entry.credits);
    const reconciles = (data: Record<string, unknown> | undefined) =>
      data?.['credits_charged'] === charged &&
      (data['credits_refunded'] === 0 || refunds.includes(data['credits_refunded'] as number));
    const expected = {
      credits_charged: charged,
      credits_refunded: refunds.length === 0 ? 0 : `one of ${refunds.join(', ')}`,
    };
    const streamed = await streamedCancellation(ctx, started.id);
    ctx.expect(
      'CRED-005',
      reconciles(streamed.data),
      {
        kind: 'state',
        message: "the stream's session.cancelled does not report what the ledger reconciled",
        expected,
        got: streamed.data ?? null,
        evidence: streamed.exchange,
      },
      `the stream reports ${charged} charged, as the ledger`,
    );
    if ('skip' in watch) {
      ctx.note(`the delivery was not judged: ${watch.skip}`);
      return;
    }
    const [delivery] = await awaitEvent(
      ctx,
      watch.subscription,
      'session.cancelled',
      (data) => data['session_id'] === started.id,
    );
    const data = delivery === undefined ? undefined : eventData(delivery, 'session.cancelled');
    if (data === undefined) {
      ctx.note('no session.cancelled delivery arrived to judge (HOOK requirements judge deliveries)');
    } else {
      ctx.expect(
        'CRED-005',
        reconciles(data),
        {
          kind: 'delivery',
          message: 'the delivered session.cancelled does not report what the ledger reconciled',
          expected,
          got: data,
        },
        `the delivery reports ${charged} charged, as the ledger`,
      );
    }
    await ctx.http.delete(`/v1/webhooks/${watch.subscription.id}`);
  },
});

export const creditChecks = [insufficient, sessionCharge, cancelReconciliation, noSurcharge, cancelledAmounts];
