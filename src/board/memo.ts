/**
 * The decision memo (seed "Session read response": `memo.verdict`, `memo.confidence_0_100`,
 * `memo.conditions`, `memo.dissent`) and the final synthesis (seed "Endpoints": `GET …/outcomes` returns
 * the final synthesis), written from where the board stands after its last round.
 * @module
 */
import type { Random } from './random.js';
import { leaningOf, type Seat } from './stances.js';
import { listProse, lowerFirst } from './text.js';
import type { Dissent, Memo } from './types.js';

export interface Decision {
  memo: Memo;
  synthesis: string;
}

function verdictOf(proceeds: boolean, subject: string, condition: string | undefined): string {
  if (proceeds) {
    return condition === undefined
      ? `Proceed with ${subject}.`
      : `Proceed with ${subject}, provided ${lowerFirst(condition)}.`;
  }
  return condition === undefined
    ? `Do not proceed with ${subject}.`
    : `Do not proceed with ${subject} yet; revisit once ${lowerFirst(condition)}.`;
}

function dissentOf(seat: Seat): Dissent {
  const position =
    seat.stance === 'oppose'
      ? seat.objection
      : `The case is made on ${seat.persona.lens}; waiting costs more than it saves.`;
  return { synth: seat.synth.slug, position };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The memo and synthesis after `lastRound`, the board having debated `roundsDebated` rounds in this run. */
export function decide(
  seats: readonly Seat[],
  subject: string,
  lastRound: number,
  roundsDebated: number,
  random: Random,
): Decision {
  const leaning = leaningOf(seats);
  const dissent = leaning.holdouts.map(dissentOf);
  // Agreement raises confidence, each dissenting voice lowers it, and a longer debate settles more.
  const confidence = clamp(
    Math.round(
      25 + 0.6 * leaning.consensus + 3 * Math.min(roundsDebated - 1, 3) - 3 * dissent.length + random.int(-3, 3),
    ),
    5,
    95,
  );
  const memo: Memo = {
    verdict: verdictOf(leaning.proceeds, subject, leaning.conditions[0]),
    confidence_0_100: confidence,
    conditions: leaning.conditions,
    dissent,
  };
  const names = (stance: Seat['stance']) =>
    seats.filter((seat) => seat.stance === stance).map((seat) => seat.synth.name);
  const backers = leaning.proceeds ? names('support') : names('oppose');
  const conditional = names('conditional');
  const [condition] = leaning.conditions;
  const proviso =
    condition === undefined
      ? ''
      : leaning.proceeds
        ? `, provided ${lowerFirst(condition)}`
        : `; it would revisit once ${lowerFirst(condition)}`;
  const sentences = [
    `After round ${lastRound}, the board ${leaning.proceeds ? 'recommends proceeding with' : 'advises against proceeding with'} ${subject}${proviso}.`,
  ];
  if (backers.length > 0) {
    sentences.push(`${listProse(backers)} ${backers.length === 1 ? 'holds' : 'hold'} that view without reservation.`);
  }
  if (conditional.length > 0 && leaning.conditions.length > 0) {
    const terms = leaning.conditions.map((condition) => lowerFirst(condition)).join('; ');
    sentences.push(
      `${listProse(conditional)} ${conditional.length === 1 ? 'attaches' : 'attach'} conditions: ${terms}.`,
    );
  }
  for (const seat of leaning.holdouts) {
    sentences.push(`${seat.synth.name} dissents: ${lowerFirst(dissentOf(seat).position)}`);
  }
  sentences.push(`Consensus stands at ${leaning.consensus}/100.`);
  return { memo, synthesis: sentences.join(' ') };
}
