/**
 * One Synth's contribution to a round: one to three sentences in its voice, shaped by the mode, its
 * position, what it answers (another Synth, a message sent into the session, an earlier decision) and the
 * figures of the context (seed "Server-sent event stream": `synth.message` carries the content).
 * @module
 */
import { flavourOf, oddsRange } from './flavours.js';
import type { Random } from './random.js';
import type { Seat } from './stances.js';
import { excerpt, fill, lowerFirst } from './text.js';

/** What a contribution answers before making its own point. */
export type Lead =
  | { kind: 'note'; text: string }
  | { kind: 'sent_back'; text: string }
  | { kind: 'earlier_verdict'; text: string }
  | { kind: 'prompt'; text: string }
  | { kind: 'revisit'; text: string }
  | { kind: 'reply'; to: Seat };

export interface Contribution {
  seat: Seat;
  modeSlug: string;
  subject: string;
  figures: readonly string[];
  /** Whether this is the run's last round, where Synths state final positions. */
  closing: boolean;
  lead: Lead | undefined;
  /** Claim indexes this Synth has used in the run; updated here so it does not repeat itself. */
  usedClaims: Set<number>;
  random: Random;
}

function claimOf(contribution: Contribution): string {
  const { seat, figures, usedClaims, random, subject } = contribution;
  const usable = seat.persona.claims
    .map((claim, index) => ({ claim, index }))
    .filter(({ claim, index }) => !usedClaims.has(index) && (figures.length > 0 || !claim.includes('{figure}')));
  if (usable.length === 0) {
    return seat.stance === seat.previous
      ? `Weighing ${seat.persona.lens} again, my view has not moved.`
      : `Weighing ${seat.persona.lens} again, I have moved.`;
  }
  const { claim, index } = random.pick(usable);
  usedClaims.add(index);
  return fill(claim, { subject, figure: figures.length > 0 ? random.pick(figures) : '' });
}

/** The contribution's first sentences and the Synth's own point among them. */
function opening(contribution: Contribution): { sentences: string[]; point: string | undefined } {
  const { lead, seat } = contribution;
  if (lead?.kind === 'sent_back') {
    const moved = seat.stance !== seat.previous ? 'I have moved' : 'my view holds';
    const sentences = [
      `You sent me back on "${excerpt(lead.text, 80)}".`,
      `Weighing it against ${seat.persona.lens}, ${moved}.`,
    ];
    return { sentences, point: undefined };
  }
  const point = claimOf(contribution);
  return { sentences: [answering(lead, point, seat, contribution.random)], point };
}

const agreeing = [
  'I agree, and would add this',
  "I'm with you, and would go further",
  'building on that',
  'right, and there is more to it',
];
const disagreeing = ['I see it differently', "I'd push back on that", "I don't buy that", 'respectfully, no'];

function answering(
  lead: Exclude<Lead, { kind: 'sent_back' }> | undefined,
  claim: string,
  seat: Seat,
  random: Random,
): string {
  switch (lead?.kind) {
    case undefined:
      return claim;
    case 'note':
      return `On your note ("${excerpt(lead.text, 80)}"): ${lowerFirst(claim)}`;
    case 'earlier_verdict':
      return `Our earlier verdict was "${excerpt(lead.text, 90)}"; ${lowerFirst(claim)}`;
    case 'prompt':
      return `On the follow-up, "${excerpt(lead.text, 80)}": ${lowerFirst(claim)}`;
    case 'revisit':
      return `${lead.text}: ${lowerFirst(claim)}`;
    case 'reply': {
      const agrees = lead.to.stance === seat.stance;
      const firstName = lead.to.synth.name.split(' ')[0] ?? lead.to.synth.name;
      return `${firstName}, ${random.pick(agrees ? agreeing : disagreeing)}: ${lowerFirst(claim)}`;
    }
  }
}

function positionOf(seat: Seat, closing: boolean): string {
  const condition = lowerFirst(seat.condition);
  switch (seat.stance) {
    case 'support':
      return closing ? 'My final position: for it.' : 'I am for it.';
    case 'conditional':
      return closing ? `My final position: for it, provided ${condition}.` : `I can support it only if ${condition}.`;
    case 'oppose':
      return closing ? `My final position: against; ${lowerFirst(seat.objection)}` : seat.objection;
  }
}

export interface Composed {
  /** The text of the `synth.message`. */
  content: string;
  /** The Synth's own point, without what it answers; `undefined` when it only reconsidered. */
  point: string | undefined;
}

/** One `synth.message`. */
export function compose(contribution: Contribution): Composed {
  const { seat, random, closing } = contribution;
  const flavour = flavourOf(contribution.modeSlug);
  const { sentences, point } = opening(contribution);
  const [low, high] = oddsRange[seat.stance];
  const line = fill(random.pick(flavour.lines[seat.stance]), {
    odds: String(random.int(low, high)),
    condition: lowerFirst(seat.condition),
  });
  const wantsLine = random.chance(flavour.lineChance) && !closing;
  if (wantsLine && sentences.length < flavour.maxSentences) {
    sentences.push(line);
  }
  const position = positionOf(seat, closing);
  // A line that already states the position ("I'm in.", "yes, provided …") is not followed by it again.
  const lineSaysIt = wantsLine && (seat.stance === 'support' || line.includes(lowerFirst(seat.condition)));
  if (sentences.length < flavour.maxSentences && !lineSaysIt) {
    sentences.push(position);
  }
  return { content: sentences.join(' '), point };
}
