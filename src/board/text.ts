/**
 * Text functions shared by the debate, the memo and the documents: what the board is deciding (the subject),
 * the figures quoted in the context, excerpts, words of a question, and template filling.
 * @module
 */

/** Lower-cases the first letter unless the first word is "I" or an acronym ("EU", "Q2", "GDPR"). */
export function lowerFirst(text: string): string {
  const firstWord = /^[\p{L}\p{N}]+/u.exec(text)?.[0] ?? '';
  if (firstWord === 'I' || (firstWord.length > 1 && firstWord === firstWord.toUpperCase())) {
    return text;
  }
  return text.charAt(0).toLowerCase() + text.slice(1);
}

export function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Collapses whitespace and trims. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** At most `max` characters, cut at a word boundary, with "..." when cut. */
export function excerpt(text: string, max = 90): string {
  const flat = squash(text);
  if (flat.length <= max) {
    return flat;
  }
  const cut = flat.slice(0, max - 3);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}...`;
}

/** The last sentence of a text: a sentence ends at ".", "!" or "?" followed by a capital or a quote. */
export function lastSentence(text: string): string {
  return (
    squash(text)
      .split(/(?<=[.!?])\s+(?=[A-Z"])/)
      .at(-1) ?? ''
  );
}

/** Lower-case words (letters and digits) of a text. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * What the board decides, as a phrase that reads after "Proceed with" and "on": a yes/no question becomes
 * "the proposal to …", a title is quoted, and a session with neither debates "the decision before the board".
 */
export function subjectOf(title: string | null | undefined, question: string | null | undefined): string {
  const asked = squash(question ?? '');
  const proposal = /^(?:should|shall|can|could|do|must|would)\s+(?:we|i|the company|our team)\s+(.+?)[?.!]*$/i.exec(
    asked,
  );
  if (proposal?.[1] !== undefined) {
    return `the proposal to ${proposal[1]}`;
  }
  const named = squash(title ?? '');
  if (named !== '') {
    return `"${named.replace(/"/g, "'")}"`;
  }
  if (asked !== '') {
    return `the question "${asked.replace(/"/g, "'")}"`;
  }
  return 'the decision before the board';
}

const figurePattern =
  /(?:[€$£]\s?\d[\d,.]*\s?(?:[kmb]n?|million|billion)?|\b\d[\d,.]*\s?(?:%|percent\b|(?:eur|usd|gbp)\b|months?\b|weeks?\b|customers\b|users\b|seats\b))/gi;

/** The figures quoted in a text ("30%", "€2.4M", "14 months"), in order, without repeats. */
export function figuresOf(text: string | null | undefined): string[] {
  const found = (text ?? '').match(figurePattern) ?? [];
  return [...new Set(found.map((figure) => squash(figure).replace(/[.,]$/, '')))];
}

/** Fills `{name}` placeholders; a placeholder without a value is left as written. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** Joins names as prose: "A", "A and B", "A, B and C". */
export function listProse(items: readonly string[]): string {
  if (items.length <= 1) {
    return items[0] ?? '';
  }
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

const negativeWords = new Set(
  'above below missed miss failed fails failure breach breached churn loss losses decline declined drop dropped late delay delayed slipped overrun lawsuit complaint complaints risk requires blocker cancel cancelled'.split(
    ' ',
  ),
);
const positiveWords = new Set(
  'confirmed signed approved ahead growth grew exceeded beat win won cleared passed secured lower cheaper faster'.split(
    ' ',
  ),
);

/** -1 when a text brings mostly bad news, 1 mostly good, 0 otherwise: how new facts move the board. */
export function sentimentOf(text: string | null | undefined): -1 | 0 | 1 {
  let score = 0;
  for (const word of wordsOf(text ?? '')) {
    score += negativeWords.has(word) ? -1 : positiveWords.has(word) ? 1 : 0;
  }
  return score < 0 ? -1 : score > 0 ? 1 : 0;
}
