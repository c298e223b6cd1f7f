/**
 * The live cross-round summary (schema `SummaryUpdateEventData`, streamed on `GET /v1/sessions/{id}/summary`
 * as `summary.update` after each round and `summary.final` once the run ends): the board's position, each
 * Synth's latest point, the requester's messages, the consensus and the questions still open.
 * `updated_at` is the server's to stamp: the simulator keeps no clock.
 * @module
 */
import { leaningOf, positionPhrase, type Seat } from './stances.js';
import { excerpt, upperFirst } from './text.js';
import type { Memo, Stance, SummaryUpdateEventData } from './types.js';

const stanceLabels: Readonly<Record<Stance, string>> = {
  support: 'for',
  conditional: 'for, with conditions',
  oppose: 'against',
};

/** A summary without its timestamp. */
export type BoardSummary = Omit<SummaryUpdateEventData, 'updated_at'>;

export interface SummaryInput {
  round: number;
  seats: readonly Seat[];
  subject: string;
  /** Each Synth's latest point, by slug. */
  latest: ReadonlyMap<string, string>;
  /** The requester's messages so far, with the round that took each up. */
  notes: ReadonlyArray<{ round: number; content: string }>;
  earlier: Memo | undefined;
  heading: 'Emerging position' | 'Position' | 'Position when the run stopped';
}

export function summarize(input: SummaryInput): BoardSummary {
  const leaning = leaningOf(input.seats);
  const lines = [`**${input.heading}:** ${upperFirst(positionPhrase(leaning, input.subject, 'imperative'))}.`];
  if (input.earlier !== undefined) {
    lines.push(`**Earlier verdict:** ${input.earlier.verdict}`);
  }
  const points = input.seats.flatMap((seat) => {
    const said = input.latest.get(seat.synth.slug);
    return said === undefined
      ? []
      : [`- **${seat.synth.name}** (${seat.synth.role}, ${stanceLabels[seat.stance]}): ${said}`];
  });
  const notes = input.notes.map((note) => `- **Requester** (round ${note.round}): ${excerpt(note.content, 140)}`);
  const body = [...points, ...notes];
  const openQuestions = [
    ...new Set(input.seats.filter((seat) => seat.stance !== 'support').map((seat) => seat.question)),
  ].slice(0, 4);
  return {
    round: input.round,
    summary: body.length === 0 ? lines.join('\n\n') : `${lines.join('\n\n')}\n\n${body.join('\n')}`,
    consensus_0_100: leaning.consensus,
    open_questions: openQuestions,
  };
}

/** The summary with the time the server publishes it (RFC 3339, UTC with milliseconds). */
export function stampSummary(summary: BoardSummary, at: Date): SummaryUpdateEventData {
  return { ...summary, updated_at: at.toISOString() };
}
