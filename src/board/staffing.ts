/**
 * Staffing a board from a question (seed "What the service does" 2: one variant lets the service staff
 * the board itself from a question, a "decision brief").
 *
 * The rule is deterministic: every Synth scores two points for each word of the question it is called
 * for (`Persona.keywords`) and one point for a seat in the mode's default lineup; the board seats the
 * best-scoring Synths with any claim at all, one seat more than the default lineup when the question calls
 * for more, ties going to the default lineup and then to catalogue order. Seats are listed in catalogue order.
 * @module
 */
import { boardCatalog } from './catalog.js';
import { personaOf } from './personas.js';
import { listProse, wordsOf } from './text.js';
import type { LineupSeat, Mode, Synth } from './types.js';

function calls(keyword: string, word: string): boolean {
  return word === keyword || word === `${keyword}s` || word === `${keyword}es`;
}

/** The words of `question` (as written) that call for `synth`. */
export function wordsCalling(synth: Synth, question: string): string[] {
  const keywords = personaOf(synth).keywords;
  const written = question.match(/[\p{L}\p{N}]+/gu) ?? [];
  const found = written.filter((word) => keywords.some((keyword) => calls(keyword, word.toLowerCase())));
  return [...new Set(found)];
}

function seatOf(synth: Synth, reason: string): LineupSeat {
  return { synth: synth.slug, name: synth.name, role: synth.role, reason };
}

/** The board the service staffs for a question in a mode. */
export function staffBoard(question: string, mode: Mode): LineupSeat[] {
  const catalog = boardCatalog();
  const asked = new Set(wordsOf(question));
  const scored = catalog.synths.map((synth, catalogIndex) => {
    const defaultIndex = mode.default_lineup.indexOf(synth.slug);
    const hits = [...asked].filter((word) => personaOf(synth).keywords.some((keyword) => calls(keyword, word))).length;
    return { synth, catalogIndex, defaultIndex, score: 2 * hits + (defaultIndex >= 0 ? 1 : 0) };
  });
  const size = Math.min(12, mode.default_lineup.length + 1);
  const chosen = scored
    .filter((entry) => entry.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        (a.defaultIndex < 0 ? 99 : a.defaultIndex) - (b.defaultIndex < 0 ? 99 : b.defaultIndex) ||
        a.catalogIndex - b.catalogIndex,
    )
    .slice(0, size)
    .sort((a, b) => a.catalogIndex - b.catalogIndex);
  return chosen.map(({ synth }) => {
    const words = wordsCalling(synth, question);
    const lens = personaOf(synth).lens;
    return seatOf(
      synth,
      words.length > 0
        ? `Brings ${lens} to a question that turns on ${listProse(words)}.`
        : `Seated by default in ${mode.name} mode to weigh ${lens}.`,
    );
  });
}

/** The seats of a lineup the requester named. */
export function namedBoard(synths: readonly Synth[]): LineupSeat[] {
  return synths.map((synth) => seatOf(synth, 'Named in the lineup by the requester.'));
}

/** The seats of a mode's default lineup, staffed because the request named no Synths. */
export function defaultBoard(mode: Mode, synths: readonly Synth[]): LineupSeat[] {
  return synths.map((synth) =>
    seatOf(synth, `Seated by default in ${mode.name} mode to weigh ${personaOf(synth).lens}.`),
  );
}

/** The seat of a consult session's named expert. */
export function consultSeat(synth: Synth): LineupSeat {
  return seatOf(synth, 'Named as the expert of this consult session.');
}
