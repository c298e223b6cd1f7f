/**
 * The credit rule (schema `CreditEstimate`, docs/decisions.md "Credits"): a run costs
 * `Synths × rounds × 5` credits with the `standard` model class and `× 15` with `premium`. The seed says
 * use depends on model assignment, Synth count and rounds; a linear rule honours all three.
 * @module
 */
import type { CreditEstimate, ModelClass } from './types.js';

/** Credits one Synth speaking in one round costs at the `standard` rate. */
export const baseCreditsPerSynthRound = 5;

export const modelClassMultiplier: Readonly<Record<ModelClass, number>> = { standard: 1, premium: 3 };

/** What one Synth-round costs: a seat for a round, a Synth sent back by a message, a consult turn. */
export function creditsPerSynthRound(modelClass: ModelClass): number {
  return baseCreditsPerSynthRound * modelClassMultiplier[modelClass];
}

/** The estimate of `synthCount` Synths debating `rounds` rounds. */
export function estimateCredits(synthCount: number, rounds: number, modelClass: ModelClass): CreditEstimate {
  const perSynthRound = creditsPerSynthRound(modelClass);
  return {
    credits: synthCount * rounds * perSynthRound,
    credits_per_synth_round: perSynthRound,
    synth_count: synthCount,
    rounds,
    model_class: modelClass,
    model_class_multiplier: modelClassMultiplier[modelClass],
  };
}
