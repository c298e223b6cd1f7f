/**
 * Plan previews and staffed boards (seed "What the service does" 2, 4 and 8; "Endpoints"): the preview
 * of a lineup start, the start's estimate beside it, the plan a session keeps, and the board the service
 * staffs for a decision brief.
 * @module
 */
import { startEstimates } from '../harness/estimates.js';
import { jsonOf } from '../harness/exchange.js';
import { discard, marker, readSession, startBodyA, startBodyB, startSession } from '../harness/sessions.js';
import { statusOf } from './problem-shape.js';
import { defineCheck } from './types.js';

interface PlanBody {
  decision_brief?: { staffed_by?: unknown; lineup?: Array<{ synth?: unknown }> };
  estimate?: { credits?: unknown };
}

const lineupOf = (body: PlanBody | undefined): string[] => (body?.decision_brief?.lineup ?? []).map((seat) => String(seat.synth));
const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((slug) => b.includes(slug));

export const preview = defineCheck({
  name: 'plans.preview',
  category: 'plans',
  title: "A plan previews the board and the estimate, and the start's estimate agrees",
  requirements: ['PLAN-001', 'PLAN-002'],
  preconditions: ['live'],
  async run(ctx) {
    const body = startBodyA(ctx.target.synths, marker('plan'), 2);
    const planned = await ctx.http.post('/v1/sessions/plan', body);
    const plan = jsonOf(planned) as PlanBody | undefined;
    const credits = plan?.estimate?.credits;
    const requested = body['synths'] as string[];
    const previewed = statusOf(planned) === 200 && sameSet(lineupOf(plan), requested) && Number.isInteger(credits);
    ctx.expect('PLAN-001', previewed, { kind: 'state', message: `the plan answered ${statusOf(planned)} without the requested board or an estimate`, expected: { status: 200, lineup: requested, estimate: { credits: 'an integer' } }, got: { status: statusOf(planned), lineup: lineupOf(plan), credits: credits ?? null }, evidence: planned }, `previewed ${requested.length} Synths at ${String(credits)} credits`);
    if (!previewed) {
      ctx.skip('PLAN-002', 'the plan gave no estimate to compare with');
      return;
    }
    const started = await startSession(ctx.http, ctx.contract, body);
    const { exchange, session } = await readSession(ctx.http, started.id);
    const { estimates, kept } = await startEstimates(ctx.http, started.exchange, session, started.id);
    ctx.expect('PLAN-002', estimates.every((estimate) => estimate === credits), { kind: 'state', message: "the start's estimate differs from the plan's", expected: credits, got: estimates, evidence: [planned, started.exchange, exchange, kept] }, `the start is estimated at the plan's ${String(credits)} credits`);
    await discard(ctx.http, started.id);
  },
});

export const sessionPlan = defineCheck({
  name: 'plans.session-plan',
  category: 'plans',
  title: 'A session keeps its pre-flight plan',
  requirements: ['PLAN-003'],
  preconditions: ['live'],
  async run(ctx) {
    const started = await startSession(ctx.http, ctx.contract, startBodyA(ctx.target.synths, marker('session plan'), 2));
    const { exchange, session } = await readSession(ctx.http, started.id);
    const answer = await ctx.http.get(`/v1/sessions/${started.id}/plan`);
    const plan = jsonOf(answer) as PlanBody | undefined;
    const synths = (session['synths'] ?? []) as string[];
    // The session's own estimate is optional; where it is left out the plan is judged by the board and
    // rounds the session must show.
    const estimated = session['estimated_cost_credits'];
    const estimate = plan?.estimate as { credits?: unknown; synth_count?: unknown; rounds?: unknown } | undefined;
    const agrees = estimated === undefined ? estimate?.synth_count === synths.length && estimate?.rounds === session['rounds'] : estimate?.credits === estimated;
    const expected = estimated === undefined ? { synth_count: synths.length, rounds: session['rounds'] } : { credits: estimated };
    ctx.expect('PLAN-003', statusOf(answer) === 200 && sameSet(lineupOf(plan), synths) && agrees, { kind: 'state', message: `the session's plan answered ${statusOf(answer)} without its board or its estimate`, expected: { status: 200, lineup: synths, estimate: expected }, got: { status: statusOf(answer), lineup: lineupOf(plan), estimate: estimate ?? null }, evidence: [exchange, answer] }, `the plan names the board and the estimate (${String(estimate?.credits)} credits)`);
    await discard(ctx.http, started.id);
  },
});

export const briefStaffing = defineCheck({
  name: 'plans.brief-staffing',
  category: 'plans',
  title: 'The service staffs the board of a decision brief',
  requirements: ['PLAN-004'],
  preconditions: ['live'],
  async run(ctx) {
    const started = await startSession(ctx.http, ctx.contract, startBodyB());
    const { exchange, session } = await readSession(ctx.http, started.id);
    const synths = Array.isArray(session['synths']) ? (session['synths'] as unknown[]).map(String) : [];
    const brief = session['decision_brief'] as PlanBody['decision_brief'] | undefined;
    const library = ctx.target.synths;
    const outside = library.length === 0 ? [] : synths.filter((slug) => !library.includes(slug));
    ctx.expect('PLAN-004', brief?.staffed_by === 'service' && synths.length >= 2 && synths.length <= 12 && outside.length === 0 && sameSet(lineupOf({ decision_brief: brief }), synths), { kind: 'state', message: 'the brief start has no board of 2 to 12 Synths of the library staffed by the service', expected: { staffed_by: 'service', synths: '2 to 12 of the library', lineup: 'the same Synths' }, got: { staffed_by: brief?.staffed_by ?? null, synths, outside, lineup: lineupOf({ decision_brief: brief }) }, evidence: exchange }, `the service staffed ${synths.length} Synths`);
    await discard(ctx.http, started.id);
  },
});

export const planChecks = [preview, sessionPlan, briefStaffing];
