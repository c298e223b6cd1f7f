/**
 * The small pieces of CommonMark (GFM tables) the generated pages are written with.
 * @module
 */

/** Inline code that survives backticks inside the text (CommonMark §6.1). */
/** A member of a contract object read as text: its value when it is a string, else the empty string. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function code(text: string | number): string {
  const value = String(text);
  const longestRun = Math.max(0, ...(value.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${value}${pad}${fence}`;
}

/** A table cell: one line, pipes escaped (GFM tables §4.10). */
export function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .replaceAll('|', '\\|')
    .trim();
}

export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [line(headers), `|${headers.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/** The first sentence of a description, on one line. */
export function firstSentence(text: string | undefined): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  const end = flat.search(/\.(\s|$)/);
  return end === -1 ? flat : flat.slice(0, end + 1);
}

/** A list of inline-code items: `a`, `b` and `c`. */
export function codeList(items: readonly string[]): string {
  const coded = items.map((item) => code(item));
  return coded.length <= 1 ? coded.join('') : `${coded.slice(0, -1).join(', ')} and ${coded.at(-1) ?? ''}`;
}

/** The banner every generated page starts with, naming the module that writes it. */
export function generatedBanner(title: string, module: string): string {
  return [
    `# ${title}`,
    '',
    `<!-- Generated from openapi/dist/openapi.json by \`boardkit docs\` (${module}). Do not edit: a test fails while it is stale. -->`,
  ].join('\n');
}
