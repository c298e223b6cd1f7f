/**
 * The diff's report in the formats `boardkit diff --format` offers: text for a terminal, JSON for tools,
 * Markdown for a pull-request comment (docs/versioning.md). GitHub annotations are in github.ts.
 * @module
 */
import { declarationLine } from './changelog.js';
import type { PolicyViolation } from './deprecation-policy.js';
import { reviewFails, type ContractReview, type ReviewedChange, type Verdict } from './review.js';
import { changeClasses, type ChangeClass } from './rules.js';

export interface DiffReport extends ContractReview {
  /** How the two sides and the changelog are named in the report. */
  base: string;
  revision: string;
  changelog: string;
}

export const diffFormats = ['text', 'json', 'markdown', 'github'] as const;
export type DiffFormat = (typeof diffFormats)[number];

/** The first line of a Markdown report, by which a pull-request comment is found again and updated. */
export const markdownMarker = '<!-- boardkit diff -->';

const verdictWords: Record<Verdict, string> = {
  undeclared: 'undeclared',
  declared: 'declared in the changelog',
  'after-deprecation-period': 'allowed: deprecated for the notice period',
  'outside-guard': 'outside /v1',
};

const classTitles: Record<ChangeClass, string> = {
  breaking: 'Breaking',
  deprecated: 'Deprecated',
  additive: 'Additive',
  'non-breaking': 'Non-breaking',
};

function byClass(report: DiffReport, kind: ChangeClass): ReviewedChange[] {
  return report.changes.filter((change) => change.class === kind);
}

/** `2 breaking (1 undeclared), 0 deprecated, 3 additive, 1 non-breaking; 1 policy violation`. */
export function summaryLine(report: DiffReport): string {
  const undeclared = report.changes.filter((change) => change.verdict === 'undeclared').length;
  const counts = changeClasses.map((kind) => {
    const count = `${byClass(report, kind).length} ${kind}`;
    return kind === 'breaking' ? `${count} (${undeclared} undeclared)` : count;
  });
  const violations = report.violations.length;
  return `${counts.join(', ')}; ${violations} policy violation${violations === 1 ? '' : 's'}`;
}

export function textReport(report: DiffReport): string {
  const line = (change: ReviewedChange | PolicyViolation): string =>
    `  ${change.rule}  ${change.operation}  ${change.where}\n`;
  const section = (title: string, entries: readonly (ReviewedChange | PolicyViolation)[]): string =>
    entries.length === 0 ? '' : `${title} (${entries.length}):\n${entries.map(line).join('')}`;
  const breaking = (verdict: Verdict): ReviewedChange[] =>
    report.changes.filter((change) => change.verdict === verdict);
  const undeclared = breaking('undeclared');
  let text =
    `Changes from ${report.base} to ${report.revision}: ${summaryLine(report)}\n` +
    section('Deprecated', byClass(report, 'deprecated')) +
    section('Additive', byClass(report, 'additive')) +
    section('Non-breaking', byClass(report, 'non-breaking')) +
    section('Breaking changes outside /v1', breaking('outside-guard')) +
    section('Removals allowed by the deprecation policy', breaking('after-deprecation-period')) +
    section('Declared breaking changes', breaking('declared'));
  if (undeclared.length > 0) {
    const suggestions = [...new Set(undeclared.map(declarationLine))].join('\n');
    text +=
      section('Undeclared breaking changes', undeclared) +
      `\nBreaking changes belong in a new path version (/v2). To ship one in /v1 anyway, declare it under\n` +
      `"## Unreleased" in ${report.changelog}:\n${suggestions}\n`;
  }
  if (report.violations.length > 0) {
    text += `Deprecation policy violations (${report.violations.length}):\n`;
    text += report.violations.map((found) => `${line(found).trimEnd()}: ${found.message}\n`).join('');
  }
  if (!reviewFails(report)) {
    text += `No undeclared breaking change against ${report.base}.\n`;
  }
  return text;
}

export function jsonReport(report: DiffReport): string {
  const undeclared = report.changes.filter((change) => change.verdict === 'undeclared').length;
  const summary = Object.fromEntries(changeClasses.map((kind) => [kind, byClass(report, kind).length]));
  const body = {
    base: report.base,
    revision: report.revision,
    passed: !reviewFails(report),
    summary: { ...summary, undeclared, violations: report.violations.length },
    changes: report.changes,
    violations: report.violations,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

/** A table cell: pipes escaped, line breaks folded (GitHub Flavored Markdown tables). */
const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const code = (text: string): string => `\`${cell(text).replaceAll('`', "'")}\``;

/** GitHub refuses comments over 65,536 characters: rows past this budget are counted, not shown. */
const markdownBudget = 60_000;
/** Tables longer than this are folded (`<details>`), so the verdict and the short tables stay in view. */
const foldedAbove = 20;

type Row = ReviewedChange | PolicyViolation;

interface Table {
  title: string;
  lines: string[];
  /** How many of its lines fit the comment. */
  shown: number;
}

/** Shares the budget among the tables, the shortest first, so a long table cannot crowd out the others. */
function fitTables(tables: Table[]): number {
  let budget = markdownBudget;
  const bySize = [...tables].sort((a, b) => a.lines.join('').length - b.lines.join('').length);
  bySize.forEach((table, index) => {
    const allowance = budget / (bySize.length - index);
    let used = 0;
    table.shown = 0;
    for (const line of table.lines) {
      if (used + line.length > allowance) {
        break;
      }
      used += line.length;
      table.shown += 1;
    }
    budget -= used;
  });
  return tables.reduce((left, table) => left + table.lines.length - table.shown, 0);
}

function renderTable({ title, lines, shown }: Table): string {
  if (lines.length === 0) {
    return '';
  }
  const body = `\n| rule | operation | where | |\n|---|---|---|---|\n${lines.slice(0, shown).join('')}`;
  const heading = `${title} (${lines.length})`;
  return lines.length > foldedAbove
    ? `\n<details><summary><strong>${heading}</strong></summary>\n${body}\n</details>\n`
    : `\n### ${heading}\n${body}`;
}

const verdictOrder: Verdict[] = ['undeclared', 'declared', 'after-deprecation-period', 'outside-guard'];

export function markdownReport(report: DiffReport): string {
  const table = (title: string, rows: readonly Row[], last: (row: Row) => string): Table => ({
    title,
    lines: rows.map(
      (row) => `| ${code(row.rule)} | ${code(row.operation)} | ${code(row.where)} | ${cell(last(row))} |\n`,
    ),
    shown: 0,
  });
  const explained = (row: Row): string => {
    const change = row as ReviewedChange;
    return change.verdict === undefined ? change.message : `**${verdictWords[change.verdict]}**: ${change.message}`;
  };
  // What fails the review comes first in its table.
  const rank = (change: ReviewedChange): number => verdictOrder.indexOf(change.verdict ?? 'undeclared');
  const tables = [
    table('Deprecation policy violations', report.violations, (row) => (row as PolicyViolation).message),
    ...changeClasses.map((kind) =>
      table(
        classTitles[kind],
        [...byClass(report, kind)].sort((a, b) => rank(a) - rank(b)),
        explained,
      ),
    ),
  ];
  const left = fitTables(tables);
  const verdict = reviewFails(report) ? '**Fails**' : '**Passes**';
  return (
    `${markdownMarker}\n## Contract changes\n\n` +
    `${verdict}: ${code(report.base)} → ${code(report.revision)}: ${summaryLine(report)}.\n` +
    tables.map(renderTable).join('') +
    (left === 0 ? '' : `\n${left} more rows are left out; \`boardkit diff --format json\` lists them all.\n`) +
    (report.changes.length === 0 && report.violations.length === 0 ? '\nNo change.\n' : '')
  );
}
