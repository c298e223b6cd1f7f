import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { boardCatalog } from '../../src/board/catalog.js';
import { BoardInputError } from '../../src/board/errors.js';
import { planSession, resolveStart } from '../../src/board/plan.js';
import type { Plan, StartSessionRequest } from '../../src/board/types.js';
import { valueAt } from '../../src/contract/pointer.js';
import type { components } from '../../src/generated/openapi.js';
import { contract, expectValid, validator } from './support.js';

function example<T>(name: string): T {
  return valueAt(contract, `#/components/examples/${name}/value`) as T;
}

const catalog = boardCatalog();
// The catalogue is what the request schemas enumerate (test/contract/catalogues.test.ts).
const slugs = catalog.synths.map((synth) => synth.slug as components['schemas']['SynthChoice']);
const slugTexts: readonly string[] = slugs;

describe('planSession', () => {
  test('plans the contract sample starts exactly as the contract examples show', () => {
    const lineup = example<StartSessionRequest>('StartRequestVariantA');
    const consult = example<StartSessionRequest>('StartRequestVariantBConsult');
    expect(planSession(lineup, 1250)).toEqual(example('PlanLineup'));
    expect(planSession(lineup, 75)).toEqual(example('PlanInsufficientCredits'));
    expect(planSession(consult, 1250)).toEqual(example('PlanConsult'));
  });

  test('staffs the board of the PlanStaffed example from its question, with a reason per seat', () => {
    const plan = planSession(example<StartSessionRequest>('StartRequestVariantBBoardroom'), 1250);
    const expected = example<Plan>('PlanStaffed');
    expect(plan.decision_brief.lineup.map((seat) => seat.synth)).toEqual(
      expected.decision_brief.lineup.map((seat) => seat.synth),
    );
    expect({ ...plan, decision_brief: { ...plan.decision_brief, lineup: [] } }).toEqual({
      ...expected,
      decision_brief: { ...expected.decision_brief, lineup: [] },
    });
    const counsel = plan.decision_brief.lineup.find((seat) => seat.synth === 'general_counsel');
    expect(counsel?.reason).toMatch(/EU/);
  });

  test('every plan answers the planSession operation with a valid body', () => {
    const body = validator.responseBody('planSession', 200);
    const requests: StartSessionRequest[] = [
      { mode: 'deep_dive' },
      { mode: 'pitch', synths: ['investor', 'founder'], rounds: 10, model_class: 'premium', title: 'Seed round' },
      {
        question: 'Should we hire a second security engineer before the SOC 2 audit?',
        session_type: 'boardroom',
        mode: 'crisis',
      },
      {
        question: 'What VAT do we owe in Ireland?',
        session_type: 'consult',
        synth_id: 'tax_advisor',
        mode: 'research',
      },
    ];
    for (const request of requests) {
      const plan = planSession(request, 100);
      expectValid('Plan', plan);
      expect(body?.(plan)).toBe(true);
    }
  });

  test('a lineup start without Synths seats the mode default lineup, staffed by the service', () => {
    const plan = planSession({ mode: 'research' }, 0);
    const mode = catalog.findMode('research_lab');
    expect(plan.decision_brief.staffed_by).toBe('service');
    expect(plan.decision_brief.lineup.map((seat) => seat.synth)).toEqual(mode?.default_lineup);
    expect(plan.rounds).toBe(mode?.default_rounds);
    expect(plan.model_class).toBe('standard');
    expect(plan.sufficient_credits).toBe(false);
  });

  test('cost rule: Synths × rounds × 5 (standard) or × 15 (premium)', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(slugs, { minLength: 2, maxLength: 12 }),
        fc.integer({ min: 1, max: 10 }),
        fc.constantFrom('standard' as const, 'premium' as const),
        fc.integer({ min: 0, max: 5000 }),
        (synths, rounds, modelClass, balance) => {
          const plan = planSession({ mode: 'boardroom', synths, rounds, model_class: modelClass }, balance);
          const rate = modelClass === 'premium' ? 15 : 5;
          expect(plan.estimate.credits).toBe(synths.length * rounds * rate);
          expect(plan.estimate.credits_per_synth_round).toBe(rate);
          expect(plan.sufficient_credits).toBe(balance >= plan.estimate.credits);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('a staffed board seats 2 to 12 distinct Synths of the library, the same for the same question', () => {
    const words = [
      'launch',
      'EU',
      'price',
      'hire',
      'security',
      'vendor',
      'tax',
      'brand',
      'risk',
      'data',
      'users',
      'the',
      'Q3',
      'should',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...words), fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 30 }),
        fc.constantFrom(...catalog.modes.map((mode) => mode.slug as components['schemas']['ModeChoice'])),
        (parts, mode) => {
          const question = `${parts.join(' ')}?`;
          const request: StartSessionRequest = { question, session_type: 'boardroom', mode };
          const lineup = resolveStart(request).synths;
          expect(lineup.length).toBeGreaterThanOrEqual(2);
          expect(lineup.length).toBeLessThanOrEqual(12);
          expect(new Set(lineup).size).toBe(lineup.length);
          expect(lineup.every((slug) => slugTexts.includes(slug))).toBe(true);
          expect(resolveStart(request).synths).toEqual(lineup);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('a question that names many concerns seats one Synth more than the default lineup', () => {
    const start = resolveStart({
      question: 'Should we raise prices before the security audit, given vendor tax and brand risk?',
      session_type: 'boardroom',
    });
    expect(start.synths).toHaveLength(5);
    expect(start.decisionBrief.staffed_by).toBe('service');
  });

  test('refuses what it cannot seat with a typed error pointing into the request', () => {
    const attempt = (request: unknown) => {
      try {
        planSession(request as StartSessionRequest, 0);
      } catch (error) {
        return error instanceof BoardInputError ? { code: error.code, pointer: error.pointer } : error;
      }
      return undefined;
    };
    expect(attempt({ mode: 'sprint' })).toEqual({ code: 'unknown_mode', pointer: '/mode' });
    expect(attempt({ mode: 'boardroom', synths: ['cfo', 'oracle'] })).toEqual({
      code: 'unknown_synth',
      pointer: '/synths/1',
    });
    expect(attempt({ question: 'Q?', session_type: 'consult' })).toEqual({
      code: 'missing_synth_id',
      pointer: '/synth_id',
    });
    expect(attempt({ question: 'Q?', session_type: 'consult', synth_id: 'oracle' })).toEqual({
      code: 'unknown_synth',
      pointer: '/synth_id',
    });
    expect(attempt({ question: 'Q?', session_type: 'boardroom', mode: 'sprint' })).toEqual({
      code: 'unknown_mode',
      pointer: '/mode',
    });
    expect(attempt({ mode: 'boardroom', rounds: 11 })).toEqual({ code: 'rounds_out_of_range', pointer: '/rounds' });
  });
});
