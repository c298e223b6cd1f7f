/**
 * The seats of a board and where each Synth stands. A Synth's first position is drawn from its lean
 * (tilted by the mode); between rounds, Synths drift towards the board's position, the stubborn ones
 * less often. The board proceeds when support, conditional or not, outnumbers opposition.
 * @module
 */
import { flavourOf } from './flavours.js';
import { personaOf, type Persona } from './personas.js';
import type { Random } from './random.js';
import { listProse, lowerFirst } from './text.js';
import type { Memo, Stance, Synth } from './types.js';

export interface Seat {
  readonly synth: Synth;
  readonly persona: Persona;
  stance: Stance;
  /** The stance before the last change, to tell a Synth that moved from one that held. */
  previous: Stance;
  /** The condition, objection and open question this Synth argues with during the run. */
  readonly condition: string;
  readonly objection: string;
  readonly question: string;
}

const stances: readonly Stance[] = ['support', 'conditional', 'oppose'];
const order: Readonly<Record<Stance, number>> = { support: 0, conditional: 1, oppose: 2 };

/** One step from `stance` towards `target`. */
export function stepTowards(stance: Stance, target: Stance): Stance {
  const from = order[stance];
  const to = order[target];
  return stances[from + Math.sign(to - from)] ?? stance;
}

/** Whether a memo's verdict says to go ahead (verdicts this simulator writes start "Proceed" or "Do not"). */
export function verdictProceeds(memo: Memo): boolean {
  if (/^proceed\b/i.test(memo.verdict)) {
    return true;
  }
  return !/\b(?:do not|don't|not proceed|hold off|reject|against)\b/i.test(memo.verdict);
}

function firstStance(persona: Persona, modeSlug: string, random: Random): Stance {
  const tilt = flavourOf(modeSlug).tilt;
  const weights = persona.lean.map((weight, index) => Math.max(0.2, weight + (tilt[index] ?? 0)));
  return stances[random.weighted(weights)] ?? 'conditional';
}

/** Where a Synth starts when the board reconvenes or continues: the earlier memo decides. */
function stanceAfter(memo: Memo, synth: Synth): Stance {
  const dissented = memo.dissent.some((entry) => entry.synth === synth.slug);
  const proceeded = verdictProceeds(memo);
  if (dissented) {
    return proceeded ? 'oppose' : 'support';
  }
  if (!proceeded) {
    return 'oppose';
  }
  return memo.conditions.length > 0 ? 'conditional' : 'support';
}

/**
 * Seats the board. `news` is the tone of what changed since an earlier decision (-1 bad, 1 good): each
 * Synth may move one step with it.
 */
export function seatBoard(
  synths: readonly Synth[],
  modeSlug: string,
  random: Random,
  earlier?: Memo,
  news: -1 | 0 | 1 = 0,
): Seat[] {
  return synths.map((synth) => {
    const persona = personaOf(synth);
    let stance = earlier === undefined ? firstStance(persona, modeSlug, random) : stanceAfter(earlier, synth);
    if (news !== 0 && random.chance(0.5)) {
      stance = stepTowards(stance, news < 0 ? 'oppose' : 'support');
    }
    return {
      synth,
      persona,
      stance,
      previous: stance,
      condition: random.pick(persona.conditions),
      objection: random.pick(persona.objections),
      question: random.pick(persona.questions),
    };
  });
}

export interface Leaning {
  proceeds: boolean;
  /** 0 (split) to 100 (unanimous), weighing conditional support as partial agreement. */
  consensus: number;
  conditions: string[];
  /** The Synths who disagree with the board's position. */
  holdouts: Seat[];
}

export function leaningOf(seats: readonly Seat[]): Leaning {
  const count = (stance: Stance) => seats.filter((seat) => seat.stance === stance).length;
  const proceeds = count('support') + count('conditional') > count('oppose');
  const agreement: Record<Stance, number> = proceeds
    ? { support: 1, conditional: 0.7, oppose: 0 }
    : { support: 0, conditional: 0.4, oppose: 1 };
  const total = seats.reduce((sum, seat) => sum + agreement[seat.stance], 0);
  const conditionSeats = seats.filter(
    (seat) => seat.stance === 'conditional' || (!proceeds && seat.stance === 'oppose'),
  );
  return {
    proceeds,
    consensus: seats.length === 0 ? 0 : Math.round((100 * total) / seats.length),
    conditions: [...new Set(conditionSeats.map((seat) => seat.condition))].slice(0, proceeds ? 4 : 3),
    holdouts: seats.filter((seat) => seat.stance === (proceeds ? 'oppose' : 'support')),
  };
}

/** Between rounds: each Synth away from the board's position may take one step towards it. */
export function converge(seats: Seat[], random: Random): void {
  const leaning = leaningOf(seats);
  const target: Stance = leaning.proceeds ? (leaning.conditions.length > 0 ? 'conditional' : 'support') : 'oppose';
  for (const seat of seats) {
    seat.previous = seat.stance;
    if (seat.stance !== target && random.chance(0.45 * (1 - seat.persona.stubbornness))) {
      seat.stance = stepTowards(seat.stance, target);
    }
  }
}

/** The board's position as a phrase: "proceeding with X, provided Y; Viktor Hale holds out". */
export function positionPhrase(leaning: Leaning, subject: string, form: 'gerund' | 'imperative'): string {
  const [condition] = leaning.conditions;
  const verb = leaning.proceeds
    ? form === 'gerund'
      ? 'proceeding with'
      : 'proceed with'
    : form === 'gerund'
      ? 'holding off on'
      : 'hold off on';
  const proviso =
    condition === undefined
      ? ''
      : leaning.proceeds
        ? `, provided ${lowerFirst(condition)}`
        : ` until ${lowerFirst(condition)}`;
  const names = leaning.holdouts.map((seat) => seat.synth.name);
  const holdouts = names.length === 0 ? '' : `; ${listProse(names)} ${names.length === 1 ? 'holds' : 'hold'} out`;
  return `${verb} ${subject}${proviso}${holdouts}`;
}
