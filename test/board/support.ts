/**
 * Shared by the board tests: the contract validator and functions that drive a run to its end and turn its
 * steps into the transcript the documents are written from.
 */
import { expect } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { createContractValidator } from '../../src/contract/validator.js';
import { createRun, type BoardRun, type BoardStep, type RunInput } from '../../src/board/debate.js';
import type { SessionTranscript } from '../../src/board/transcript.js';

export const contract = loadContract();
export const validator = createContractValidator(contract);

export function schema(name: string): string {
  return `#/components/schemas/${name}`;
}

/** Asserts that `value` satisfies the contract's schema `name`, showing Ajv's errors when it does not. */
export function expectValid(name: string, value: unknown): void {
  const result = validator.validate(schema(name), value);
  expect(result.errors, `${name}: ${JSON.stringify(value).slice(0, 300)}`).toEqual([]);
}

/** Every remaining step of a run. */
export function drain(run: BoardRun): BoardStep[] {
  const steps: BoardStep[] = [];
  for (let step = run.nextStep(); step !== undefined; step = run.nextStep()) {
    steps.push(step);
  }
  return steps;
}

export const euLaunch: RunInput = {
  seed: 'ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E',
  mode: 'stress_test',
  synths: ['cfo', 'general_counsel', 'growth_lead', 'skeptic'],
  title: 'EU launch of the Pro plan',
  context:
    'We sell a B2B analytics tool; 30% of the trial sign-ups come from the EU. Legal flagged GDPR data residency.',
  rounds: 3,
};

/** The transcript of a finished run, as the server would hold it. */
export function transcriptOf(input: RunInput, steps: readonly BoardStep[], status = 'complete'): SessionTranscript {
  const decided = steps.find((step) => step.kind === 'decided');
  return {
    session: {
      id: input.seed,
      mode: input.mode,
      status: status as SessionTranscript['session']['status'],
      synths: [...input.synths],
      rounds: (input.firstRound ?? 1) + input.rounds - 1,
      created_at: '2026-11-20T09:14:02.112Z',
      completed_at: decided ? '2026-11-20T09:19:55.031Z' : null,
      title: input.title ?? null,
      question: input.question ?? null,
      context: input.context ?? null,
    },
    messages: steps.flatMap((step) => (step.kind === 'synth.message' ? [step.data] : [])),
    rounds: steps.flatMap((step) => (step.kind === 'round.complete' ? [step.data] : [])),
    synthesis: decided?.kind === 'decided' ? decided.synthesis : null,
    memo: decided?.kind === 'decided' ? decided.memo : null,
  };
}

export function finishedTranscript(input: RunInput = euLaunch): SessionTranscript {
  return transcriptOf(input, drain(createRun(input)));
}
