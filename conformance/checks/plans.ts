/**
 * Plan previews and staffed boards (seed "What the service does" 2, 4 and 8; "Endpoints"): the preview
 * of a lineup start, the start's estimate beside it, the plan a session keeps, and the board the service
 * staffs for a decision brief.
 * @module
 */
import { startEstimates } from '../harness/estimates.js';
import { jsonOf } from '../harness/exchange.js';
import { onPoorWorkspace } from '../harness/key-control.js';
import {
  discard,
  discardStarted,
  marker,
  readSession,
  startBodyA,
  startBodyB,
  startMarkedSession,
  startSession,
} from '../harness/sessions.js';
import { statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

/** Plans are of sessions and balances the target keeps: the checks need a target that keeps state. */
const check = checksOf('plans', { preconditions: ['live'] });

interface PlanBody {
  decision_brief?: { staffed_by?: unknown; lineup?: Array<{ synth?: unknown }> };
  estimate?: {
    credits?: unknown;
    credits_per_synth_round?: unknown;
    synth_count?: unknown;
    rounds?: unknown;
    model_class?: unknown;
  };
  balance_credits?: unknown;
  sufficient_credits?: unknown;
}

const lineupOf = (body: PlanBody | undefined): string[] =>
  (body?.decision_brief?.lineup ?? []).map((seat) => String(seat.synth));
const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((slug) => b.includes(slug));

export const preview = check('preview', ['PLAN-001', 'PLAN-002'], {
  title: "A plan previews the board and the estimate, and the start's estimate agrees",
  async run(ctx) {
    const body = startBodyA(ctx.target.synths, marker('plan'), 2);
    const planned = await ctx.http.post('/v1/sessions/plan', body);
    const plan = jsonOf(planned) as PlanBody | undefined;
    const credits = plan?.estimate?.credits;
    const requested = body['synths'] as string[];
    const previewed = statusOf(planned) === 200 && sameSet(lineupOf(plan), requested) && Number.isInteger(credits);
    ctx.expect(
      'PLAN-001',
      previewed,
      {
        kind: 'state',
        message: `the plan answered ${statusOf(planned)} without the requested board or an estimate`,
        expected: { status: 200, lineup: requested, estimate: { credits: 'an integer' } },
        got: { status: statusOf(planned), lineup: lineupOf(plan), credits: credits ?? null },
        evidence: planned,
      },
      `previewed ${requested.length} Synths at ${String(credits)} credits`,
    );
    if (!previewed) {
      ctx.skip('PLAN-002', 'the plan gave no estimate to compare with');
      return;
    }
    const started = await startSession(ctx.http, ctx.contract, body);
    const { exchange, session } = await readSession(ctx.http, started.id);
    const { estimates, kept } = await startEstimates(ctx.http, started.exchange, session, started.id);
    ctx.expect(
      'PLAN-002',
      estimates.every((estimate) => estimate === credits),
      {
        kind: 'state',
        message: "the start's estimate differs from the plan's",
        expected: credits,
        got: estimates,
        evidence: [planned, started.exchange, exchange, kept],
      },
      `the start is estimated at the plan's ${String(credits)} credits`,
    );
    await discard(ctx.http, started.id);
  },
});

export const sessionPlan = check('session-plan', ['PLAN-003'], {
  title: 'A session keeps its pre-flight plan',
  async run(ctx) {
    const started = await startMarkedSession(ctx, 'session plan', 2);
    const { exchange, session } = await readSession(ctx.http, started.id);
    const answer = await ctx.http.get(`/v1/sessions/${started.id}/plan`);
    const plan = jsonOf(answer) as PlanBody | undefined;
    const synths = (session['synths'] ?? []) as string[];
    // The session's own estimate is optional; where it is left out the plan is judged by the board and
    // rounds the session must show.
    const estimated = session['estimated_cost_credits'];
    const estimate = plan?.estimate;
    const agrees =
      estimated === undefined
        ? estimate?.synth_count === synths.length && estimate?.rounds === session['rounds']
        : estimate?.credits === estimated;
    const expected =
      estimated === undefined ? { synth_count: synths.length, rounds: session['rounds'] } : { credits: estimated };
    ctx.expect(
      'PLAN-003',
      statusOf(answer) === 200 && sameSet(lineupOf(plan), synths) && agrees,
      {
        kind: 'state',
        message: `the session's plan answered ${statusOf(answer)} without its board or its estimate`,
        expected: { status: 200, lineup: synths, estimate: expected },
        got: { status: statusOf(answer), lineup: lineupOf(plan), estimate: estimate ?? null },
        evidence: [exchange, answer],
      },
      `the plan names the board and the estimate (${String(estimate?.credits)} credits)`,
    );
    await discard(ctx.http, started.id);
  },
});

export const briefStaffing = check('brief-staffing', ['PLAN-004'], {
  title: 'The service staffs the board of a decision brief',
  async run(ctx) {
    const started = await startSession(ctx.http, ctx.contract, startBodyB());
    const { exchange, session } = await readSession(ctx.http, started.id);
    const synths = Array.isArray(session['synths']) ? (session['synths'] as unknown[]).map(String) : [];
    const brief = session['decision_brief'] as PlanBody['decision_brief'] | undefined;
    const library = ctx.target.synths;
    const outside = library.length === 0 ? [] : synths.filter((slug) => !library.includes(slug));
    ctx.expect(
      'PLAN-004',
      brief?.staffed_by === 'service' &&
        synths.length >= 2 &&
        synths.length <= 12 &&
        outside.length === 0 &&
        sameSet(lineupOf({ decision_brief: brief }), synths),
      {
        kind: 'state',
        message: 'the brief start has no board of 2 to 12 Synths of the library staffed by the service',
        expected: { staffed_by: 'service', synths: '2 to 12 of the library', lineup: 'the same Synths' },
        got: { staffed_by: brief?.staffed_by ?? null, synths, outside, lineup: lineupOf({ decision_brief: brief }) },
        evidence: exchange,
      },
      `the service staffed ${synths.length} Synths`,
    );
    await discard(ctx.http, started.id);
  },
});

export const shortBalance = check('short-balance', ['PLAN-005'], {
  title: 'A plan made on a short balance says so, and the start it plans is refused at its estimate',
  // A workspace of its own whose balance no session's estimate fits in (test control provisions it).
  run: onPoorWorkspace('PLAN-005', async (ctx, poor) => {
    const body = startBodyA(ctx.target.synths, marker('short plan'), 2);
    const planned = await poor.http.post('/v1/sessions/plan', body);
    const plan = (jsonOf(planned) ?? {}) as PlanBody;
    const started = await poor.http.post('/v1/sessions', body);
    const refusal = (jsonOf(started) ?? {}) as { session_estimate_credits?: unknown; balance_credits?: unknown };
    const kept =
      statusOf(planned) === 200 &&
      plan.sufficient_credits === false &&
      plan.balance_credits === refusal.balance_credits &&
      statusOf(started) === 402 &&
      refusal.session_estimate_credits === plan.estimate?.credits;
    ctx.expect(
      'PLAN-005',
      kept,
      {
        kind: 'state',
        message:
          'the plan on a short balance did not say it falls short, or the start it planned was not refused at its estimate',
        expected: {
          plan: { sufficient_credits: false, balance_credits: 'the balance of the refusal' },
          start: { status: 402, session_estimate_credits: plan.estimate?.credits ?? "the plan's estimate" },
        },
        got: {
          plan: {
            status: statusOf(planned),
            sufficient_credits: plan.sufficient_credits ?? null,
            balance_credits: plan.balance_credits ?? null,
          },
          start: {
            status: statusOf(started),
            session_estimate_credits: refusal.session_estimate_credits ?? null,
            balance_credits: refusal.balance_credits ?? null,
          },
        },
        evidence: [planned, started],
      },
      `the plan said ${String(plan.estimate?.credits)} credits do not fit in ${String(plan.balance_credits)}, and the start was refused so`,
    );
    if (statusOf(started) !== 402) {
      await discardStarted(poor.http, started);
    }
  }),
});

/** The plan of the lineup start `body` at `modelClass`, and whether its estimate adds up. */
async function planAt(ctx: CheckContext, body: Record<string, unknown>, modelClass: string) {
  const exchange = await ctx.http.post('/v1/sessions/plan', { ...body, model_class: modelClass });
  const estimate = ((jsonOf(exchange) ?? {}) as PlanBody).estimate ?? {};
  const [credits, perRound, count, rounds] = [
    estimate.credits,
    estimate.credits_per_synth_round,
    estimate.synth_count,
    estimate.rounds,
  ].map(Number);
  const addsUp =
    statusOf(exchange) === 200 &&
    estimate.model_class === modelClass &&
    credits === count! * rounds! * perRound! &&
    Number.isInteger(credits);
  return { exchange, estimate, credits: credits!, addsUp };
}

export const modelClassPrice = check('model-class-price', ['PLAN-006'], {
  title: "A plan's price follows its model class, and the start is priced as planned",
  async run(ctx) {
    const body = startBodyA(ctx.target.synths, marker('model class'), 2);
    const [standard, premium] = [await planAt(ctx, body, 'standard'), await planAt(ctx, body, 'premium')];
    const evidence = [standard.exchange, premium.exchange];
    const priced = standard.addsUp && premium.addsUp && premium.credits > standard.credits;
    ctx.expect(
      'PLAN-006',
      priced,
      {
        kind: 'state',
        message:
          'the plans do not price the model class: an estimate does not add up, or premium costs no more than standard',
        expected: {
          credits: 'synth_count × rounds × credits_per_synth_round, the model class echoed',
          premium: 'above standard',
        },
        got: { standard: standard.estimate, premium: premium.estimate },
        evidence,
      },
      `standard ${standard.credits}, premium ${premium.credits} credits`,
    );
    if (!priced) {
      return;
    }
    const started = await startSession(ctx.http, ctx.contract, { ...body, model_class: 'premium' });
    const { session } = await readSession(ctx.http, started.id);
    const { estimates, kept } = await startEstimates(ctx.http, started.exchange, session, started.id);
    ctx.expect(
      'PLAN-006',
      estimates.length > 0 && estimates.every((estimate) => estimate === premium.credits),
      {
        kind: 'state',
        message: "the premium start is not estimated at its plan's price",
        expected: premium.credits,
        got: estimates,
        evidence: [premium.exchange, started.exchange, kept],
      },
      `the premium start is estimated at the plan's ${premium.credits} credits`,
    );
    await discard(ctx.http, started.id);
  },
});

export const planChecks = [preview, sessionPlan, briefStaffing, shortBalance, modelClassPrice];
