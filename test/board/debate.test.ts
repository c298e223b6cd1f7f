import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { boardCatalog } from '../../src/board/catalog.js';
import { createRun, type BoardStep, type RunInput } from '../../src/board/debate.js';
import { BoardStateError } from '../../src/board/errors.js';
import { stampSummary } from '../../src/board/summary.js';
import { drain, euLaunch, expectValid } from './support.js';

const catalog = boardCatalog();
const at = new Date('2026-11-20T09:17:31.406Z');

function messages(steps: readonly BoardStep[]) {
  return steps.flatMap((step) => (step.kind === 'synth.message' ? [step] : []));
}

function expectStepValid(step: BoardStep): void {
  expect(step.simulatedMs).toBeGreaterThan(0);
  switch (step.kind) {
    case 'synth.message':
      expectValid('SynthMessageEventData', step.data);
      break;
    case 'round.complete':
      expectValid('RoundCompleteEventData', step.data);
      expectValid('SummaryUpdateEventData', stampSummary(step.summary, at));
      break;
    case 'decided':
      expectValid('Memo', step.memo);
      expectValid('SummaryUpdateEventData', stampSummary(step.summary, at));
      break;
    case 'failed':
      expectValid('SessionError', step.error);
      expectValid('SessionFailedStreamEventData', step.error);
      expectValid('SummaryUpdateEventData', stampSummary(step.summary, at));
      break;
  }
}

describe('a run', () => {
  test('debates round by round: every Synth speaks, the round completes, and the memo closes the run', () => {
    const run = createRun(euLaunch);
    expect(run.currentRound).toBe(1);
    const steps = drain(run);
    steps.forEach(expectStepValid);
    expect(
      steps.map((step) => (step.kind === 'synth.message' ? `${step.data.round}:${step.data.synth}` : step.kind)),
    ).toHaveLength(3 * 4 + 3 + 1);
    for (const round of [1, 2, 3]) {
      const spoke = messages(steps)
        .filter((step) => step.data.round === round)
        .map((step) => step.data.synth);
      expect([...spoke].sort()).toEqual([...euLaunch.synths].sort());
      const completeAt = steps.findIndex((step) => step.kind === 'round.complete' && step.data.round === round);
      const lastMessageAt = Math.max(
        ...steps.flatMap((step, index) => (step.kind === 'synth.message' && step.data.round === round ? [index] : [])),
      );
      expect(completeAt).toBe(lastMessageAt + 1);
    }
    const last = steps.at(-1);
    expect(last?.kind).toBe('decided');
    if (last?.kind === 'decided') {
      expect(last.round).toBe(3);
      expect(last.memo.dissent.every((entry) => euLaunch.synths.includes(entry.synth))).toBe(true);
      expect(last.synthesis).toMatch(/^After round 3, the board /);
    }
    expect(run.ended).toBe(true);
    expect(run.completedRounds).toBe(3);
    expect(run.nextStep()).toBeUndefined();
  });

  test('is deterministic: the same seed and inputs give byte-identical steps, another seed others', () => {
    const first = JSON.stringify(drain(createRun(euLaunch)));
    expect(JSON.stringify(drain(createRun(euLaunch)))).toBe(first);
    expect(JSON.stringify(drain(createRun({ ...euLaunch, seed: 'ses_01JD9C3E5G7J9L1N3Q5S7U9W1Y' })))).not.toBe(first);
  });

  test('is deterministic with messages: the same messages at the same steps give the same run', () => {
    const withMessage = () => {
      const run = createRun(euLaunch);
      const steps = [run.nextStep(), run.nextStep(), run.nextStep(), run.nextStep(), run.nextStep(), run.nextStep()];
      run.sendMessage({
        content: 'Our largest EU prospect now requires data residency in Germany.',
        send_back: ['cfo'],
      });
      return JSON.stringify([...steps, ...drain(run)]);
    };
    expect(withMessage()).toBe(withMessage());
    expect(withMessage()).not.toBe(JSON.stringify(drain(createRun(euLaunch))));
  });

  test('shapes contributions by Synth, mode and context, and every output validates, across modes and seeds', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.constantFrom(...catalog.modes),
        fc.shuffledSubarray(
          catalog.synths.map((synth) => synth.slug),
          { minLength: 2, maxLength: 6 },
        ),
        fc.integer({ min: 1, max: 4 }),
        (seed, mode, synths, rounds) => {
          const steps = drain(
            createRun({ seed, mode: mode.slug, synths, rounds, question: 'Should we open an office in Lisbon?' }),
          );
          steps.forEach(expectStepValid);
          for (const { data } of messages(steps)) {
            expect(data.content).not.toMatch(/\{\w+\}|undefined|null|\s{2}/);
            expect(data.content.length).toBeLessThan(600);
            expect(data.content.split(/(?<=[.!?])\s+(?=[A-Z])/).length).toBeLessThanOrEqual(3);
          }
          expect(steps.at(-1)?.kind).toBe('decided');
        },
      ),
      { numRuns: 60 },
    );
  });

  test('quotes figures of the context and never a failure marker', () => {
    const input: RunInput = {
      ...euLaunch,
      mode: 'deep_dive',
      synths: ['data_scientist', 'growth_lead', 'cfo'],
      rounds: 3,
    };
    const text = messages(drain(createRun(input)))
      .map((step) => step.data.content)
      .join('\n');
    expect(text).toContain('30%');
    const marked = drain(createRun({ ...input, context: `${input.context} [simulate:upstream_error@9]` }));
    expect(JSON.stringify(marked)).not.toContain('[simulate');
  });

  test('takes a message up in the round in progress: later speakers read it, the sent-back Synths speak again', () => {
    const run = createRun(euLaunch);
    const before = [...Array(6)].map(() => run.nextStep());
    expect(before.filter((step) => step?.kind === 'round.complete')).toHaveLength(1);
    expect(run.currentRound).toBe(2);
    const content = 'Our largest EU prospect now requires data residency in Germany. Does that change the Q2 date?';
    expect(run.sendMessage({ content, send_back: ['general_counsel', 'cfo'] })).toEqual({ round: 2 });
    const after = drain(run);
    const roundTwo = after.slice(
      0,
      after.findIndex((step) => step.kind === 'round.complete'),
    );
    const spokeBefore = new Set(
      before.flatMap((step) => (step?.kind === 'synth.message' && step.data.round === 2 ? [step.data.synth] : [])),
    );
    const stillToSpeak = roundTwo.filter((step) => step.kind === 'synth.message' && !step.sentBack);
    expect(stillToSpeak).toHaveLength(4 - spokeBefore.size);
    stillToSpeak.forEach((step) =>
      expect(step.kind === 'synth.message' && step.data.content).toMatch(/^On your note \("Our largest EU prospect/),
    );
    const sentBack = roundTwo.flatMap((step) => (step.kind === 'synth.message' && step.sentBack ? [step.data] : []));
    expect(sentBack.map((data) => data.synth)).toEqual(['general_counsel', 'cfo']);
    sentBack.forEach((data) => {
      expect(data.round).toBe(2);
      expect(data.content).toMatch(/^You sent me back on "Our largest EU prospect/);
    });
    const summary = after.find((step) => step.kind === 'round.complete');
    expect(summary?.kind === 'round.complete' && summary.summary.summary).toContain(
      '**Requester** (round 2): Our largest EU prospect',
    );
  });

  test('a message between rounds is taken up by the next round', () => {
    const run = createRun(euLaunch);
    const roundOne = [...Array(5)].map(() => run.nextStep());
    expect(roundOne.at(-1)?.kind).toBe('round.complete');
    expect(run.sendMessage({ content: 'Assume the price stays at 49 EUR per seat.' })).toEqual({ round: 2 });
    const next = run.nextStep();
    expect(next?.kind === 'synth.message' && next.data).toMatchObject({
      round: 2,
      content: expect.stringMatching(/^On your note/),
    });
  });

  test('refuses to send back a Synth that is not on the board, and the run is unchanged', () => {
    const run = createRun(euLaunch);
    run.nextStep();
    expect(() => run.sendMessage({ content: 'Hello', send_back: ['cfo', 'futurist'] })).toThrow(BoardStateError);
    expect(() => run.sendMessage({ content: 'Hello', send_back: ['futurist'] })).toThrow(
      expect.objectContaining({ code: 'not_on_board' }),
    );
    const baseline = createRun(euLaunch);
    baseline.nextStep();
    expect(JSON.stringify(drain(run))).toBe(JSON.stringify(drain(baseline)));
  });

  test('takes no message once the last round has closed', () => {
    const run = createRun({ ...euLaunch, rounds: 1 });
    const steps = [...Array(5)].map(() => run.nextStep());
    expect(steps.at(-1)?.kind).toBe('round.complete');
    expect(() => run.sendMessage({ content: 'Late' })).toThrow(expect.objectContaining({ code: 'memo_in_progress' }));
    expect(run.nextStep()?.kind).toBe('decided');
    expect(() => run.sendMessage({ content: 'Later' })).toThrow(BoardStateError);
    expect(() => run.sendMessage({ content: 'Later' })).toThrow(expect.objectContaining({ code: 'run_ended' }));
  });

  test('cancels: the summary as it stands, then no more steps', () => {
    const run = createRun(euLaunch);
    [...Array(7)].forEach(() => run.nextStep());
    const summary = run.cancel();
    expectValid('SummaryUpdateEventData', stampSummary(summary, at));
    expect(summary.round).toBe(2);
    expect(summary.summary).toMatch(/^\*\*Position when the run stopped:\*\*/);
    expect(run.completedRounds).toBe(1);
    expect(run.nextStep()).toBeUndefined();
  });

  test('refuses rounds outside 1 to 10 and unknown modes or Synths', () => {
    expect(() => createRun({ ...euLaunch, rounds: 0 })).toThrow(
      expect.objectContaining({ code: 'rounds_out_of_range' }),
    );
    expect(() => createRun({ ...euLaunch, rounds: 11 })).toThrow(
      expect.objectContaining({ code: 'rounds_out_of_range' }),
    );
    expect(() => createRun({ ...euLaunch, mode: 'sprint' })).toThrow(expect.objectContaining({ code: 'unknown_mode' }));
    expect(() => createRun({ ...euLaunch, synths: ['cfo'] })).toThrow(expect.objectContaining({ code: 'lineup_size' }));
  });
});

describe('follow-ups', () => {
  const decided = drain(createRun(euLaunch)).at(-1);
  const memo = decided?.kind === 'decided' ? decided.memo : undefined;
  if (memo === undefined) {
    throw new Error('the run did not decide');
  }

  test('continue: follow-up rounds numbered on, the prompt before the board, a new memo', () => {
    const prompt = 'Work through the SOC 2 timing the skeptic raised and say whether Q2 still holds.';
    const steps = drain(
      createRun({ ...euLaunch, firstRound: 4, rounds: 2, earlier: { kind: 'continued', memo, prompt } }),
    );
    steps.forEach(expectStepValid);
    expect(new Set(messages(steps).map((step) => step.data.round))).toEqual(new Set([4, 5]));
    expect(messages(steps)[0]?.data.content).toMatch(/^On the follow-up, "Work through the SOC 2 timing/);
    const last = steps.at(-1);
    expect(last?.kind === 'decided' && last.round).toBe(5);
  });

  test('continue without a prompt revisits the dissent or the conditions', () => {
    const steps = drain(createRun({ ...euLaunch, firstRound: 4, rounds: 1, earlier: { kind: 'continued', memo } }));
    expect(messages(steps)[0]?.data.content).toMatch(/^Revisiting /);
  });

  test('reconvene: the earlier memo is before the board and in the summary', () => {
    const context =
      'Two months after the EU launch, churn in the pilot cohort reached 5.2% a month, above the 4% condition of the memo.';
    const steps = drain(
      createRun({ ...euLaunch, context, firstRound: 4, rounds: 2, earlier: { kind: 'reconvened', memo } }),
    );
    steps.forEach(expectStepValid);
    expect(messages(steps)[0]?.data.content).toContain(`Our earlier verdict was "${memo.verdict.slice(0, 40)}`);
    const complete = steps.find((step) => step.kind === 'round.complete');
    expect(complete?.kind === 'round.complete' && complete.summary.summary).toContain(
      `**Earlier verdict:** ${memo.verdict}`,
    );
    expect(complete?.kind === 'round.complete' && complete.data.round).toBe(4);
  });
});

describe('failure markers', () => {
  test('[simulate:upstream_error] fails the run after the first message of round 2', () => {
    const run = createRun({ ...euLaunch, context: `${euLaunch.context} [simulate:upstream_error]` });
    const steps = drain(run);
    steps.forEach(expectStepValid);
    expect(steps.map((step) => step.kind)).toEqual([
      ...Array(4).fill('synth.message'),
      'round.complete',
      'synth.message',
      'failed',
    ]);
    const failed = steps.at(-1);
    expect(failed?.kind === 'failed' && failed.round).toBe(2);
    expect(failed?.kind === 'failed' && failed.error.error_code).toBe('upstream_error');
    expect(failed?.kind === 'failed' && failed.error.error_message).toMatch(/round 2/);
    expect(run.completedRounds).toBe(1);
    expect(() => run.sendMessage({ content: 'Anyone?' })).toThrow(BoardStateError);
  });

  test('@N picks the round, other codes are carried, one-round runs fail in their round, later rounds do not', () => {
    const lastKind = (input: RunInput) => drain(createRun(input)).at(-1);
    const atThree = lastKind({ ...euLaunch, title: 'Launch [simulate:model_timeout@3]' });
    expect(atThree).toMatchObject({ kind: 'failed', round: 3, error: { error_code: 'model_timeout' } });
    expect(lastKind({ ...euLaunch, rounds: 1, question: 'Go? [simulate:content_policy]' })).toMatchObject({
      kind: 'failed',
      round: 1,
      error: { error_code: 'content_policy' },
    });
    expect(lastKind({ ...euLaunch, context: '[simulate:upstream_error@7]' })?.kind).toBe('decided');
    expect(lastKind({ ...euLaunch, context: '[simulate:not_a_code]' })?.kind).toBe('decided');
  });

  test('a continue prompt can carry the marker', () => {
    const memo = { verdict: 'Proceed.', confidence_0_100: 70, conditions: [], dissent: [] };
    const last = drain(
      createRun({
        ...euLaunch,
        firstRound: 4,
        rounds: 1,
        earlier: { kind: 'continued', memo, prompt: 'Again [simulate:upstream_error]' },
      }),
    ).at(-1);
    expect(last).toMatchObject({ kind: 'failed', round: 4 });
  });
});
