/**
 * How each session mode (seed "What the service does" 3) colours the debate: a line each Synth may add
 * for its position, how the mode tilts first positions, and how long contributions are. Keyed by the slugs
 * of the contract's `ModeCatalog`; a mode the table does not know yet debates like the Boardroom.
 * `{odds}` is a probability the Synth states (Crystal Ball: forecasts with stated probabilities) and
 * `{condition}` the Synth's condition.
 * @module
 */
import type { Stance } from './types.js';

export interface ModeFlavour {
  lines: Readonly<Record<Stance, readonly string[]>>;
  /** Added to each Synth's lean (support, conditional, oppose) for its first position. */
  tilt: readonly [number, number, number];
  /** The most sentences one contribution has. */
  maxSentences: 2 | 3;
  /** How likely a contribution carries the mode's line. */
  lineChance: number;
}

const boardroom: ModeFlavour = {
  lines: {
    support: ['On balance, I am for it.', 'I would vote yes.'],
    conditional: ['I can vote yes with conditions attached.', 'My yes is conditional.'],
    oppose: ['On balance, I would vote no.', 'I would vote no today.'],
  },
  tilt: [0, 0, 0],
  maxSentences: 3,
  lineChance: 0.5,
};

const flavours: Readonly<Record<string, ModeFlavour>> = {
  boardroom,
  idea_lab: {
    lines: {
      support: [
        'Put it on the list as option one and rank it against two alternatives.',
        'There is a bolder version of this worth sketching too.',
      ],
      conditional: ['Keep it on the shortlist, but let us generate two alternatives before ranking.'],
      oppose: ['I would rank it below the alternatives we have not explored yet.'],
    },
    tilt: [2, 0, -1],
    maxSentences: 3,
    lineChance: 0.6,
  },
  lightning_round: {
    lines: {
      support: ['My answer: yes.'],
      conditional: ['My answer: yes, provided {condition}.'],
      oppose: ['My answer: no.'],
    },
    tilt: [0, 0, 0],
    maxSentences: 2,
    lineChance: 1,
  },
  the_arena: {
    lines: {
      support: ['Attack it as you like; it holds.', 'I tried to break it and could not.'],
      conditional: ['It survives the stress test only with guard rails.'],
      oppose: ['Under pressure, this breaks.', 'Push on it and it gives way.'],
    },
    tilt: [-1, 0, 2],
    maxSentences: 3,
    lineChance: 0.6,
  },
  shark_tank: {
    lines: { support: ["I'm in."], conditional: ["I'd invest, but on my terms."], oppose: ["I'm out."] },
    tilt: [0, 0, 1],
    maxSentences: 3,
    lineChance: 0.8,
  },
  command_center: {
    lines: {
      support: ['In the next six hours: name the owner and start.'],
      conditional: ['Triage first: contain the exposure in the next six hours, then decide.'],
      oppose: ['Do not act yet; stabilise first and revisit in six hours.'],
    },
    tilt: [0, 2, 0],
    maxSentences: 3,
    lineChance: 0.7,
  },
  war_room: {
    lines: {
      support: ['We move before our rival does; their likely answer is a price cut, and we can absorb it.'],
      conditional: ['Our rival will answer within a quarter, so we move only with a response ready.'],
      oppose: ['This is exactly the move our rival wants us to make.'],
    },
    tilt: [1, 0, 0],
    maxSentences: 3,
    lineChance: 0.6,
  },
  deep_dive: {
    lines: {
      support: ['The evidence so far points in its favour.'],
      conditional: ['The evidence is mixed; it holds only under the assumptions I listed.'],
      oppose: ['The evidence does not carry it yet.'],
    },
    tilt: [0, 1, 0],
    maxSentences: 3,
    lineChance: 0.6,
  },
  crystal_ball: {
    lines: {
      support: ['I put the odds of success at {odds}%.'],
      conditional: ['I put the odds at {odds}%, rising if the conditions hold.'],
      oppose: ['I put the odds of success at {odds}%.'],
    },
    tilt: [0, 1, 0],
    maxSentences: 3,
    lineChance: 1,
  },
  research_lab: {
    lines: {
      support: ['Hypothesis: it works, and the evidence we have is consistent with that.'],
      conditional: ['It is a hypothesis worth testing; state the success metric before we look at results.'],
      oppose: ['The hypothesis fails on the evidence we have so far.'],
    },
    tilt: [0, 2, 0],
    maxSentences: 3,
    lineChance: 0.7,
  },
};

/** The odds a Synth in this stance states, as a range of percentages. */
export const oddsRange: Readonly<Record<Stance, readonly [number, number]>> = {
  support: [60, 80],
  conditional: [45, 65],
  oppose: [15, 40],
};

export function hasFlavour(modeSlug: string): boolean {
  return Object.hasOwn(flavours, modeSlug);
}

export function flavourOf(modeSlug: string): ModeFlavour {
  return flavours[modeSlug] ?? boardroom;
}
