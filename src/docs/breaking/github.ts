/**
 * The diff's report as GitHub Actions workflow commands (`::error file=…,line=…::message`), so that a
 * workflow run shows each change on the line of the split source it concerns: errors for what fails the
 * diff, warnings for other breaking changes and deprecations, notices for the rest.
 * @module
 */
import { relative } from 'node:path';
import type { PolicyViolation } from './deprecation-policy.js';
import { summaryLine, type DiffReport } from './formats.js';
import type { ReviewedChange } from './review.js';
import type { SourceLocation } from './source-location.js';

type Level = 'error' | 'warning' | 'notice';

/** Escapes of workflow command data and properties (GitHub's toolkit `escapeData` / `escapeProperty`). */
const data = (text: string): string => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const property = (text: string): string => data(text).replaceAll(':', '%3A').replaceAll(',', '%2C');

function levelOf(change: ReviewedChange): Level {
  if (change.verdict === 'undeclared') {
    return 'error';
  }
  return change.class === 'breaking' || change.class === 'deprecated' ? 'warning' : 'notice';
}

/**
 * One command per change and violation; `locate` gives the source line of a place in the revision (or
 * `undefined` when the revision has no split source in the workspace).
 */
export async function githubReport(
  report: DiffReport,
  locate: ((pointer: string) => Promise<SourceLocation>) | undefined,
): Promise<string> {
  const command = async (level: Level, entry: ReviewedChange | PolicyViolation, message: string): Promise<string> => {
    const pointer = entry.at.revision ?? entry.at.base;
    const where = locate === undefined || pointer === undefined ? undefined : await locate(pointer);
    const properties = [
      ...(where === undefined ? [] : [`file=${property(relative(process.cwd(), where.file))}`, `line=${where.line}`]),
      `title=${property(`${entry.rule}: ${entry.operation}`)}`,
    ];
    return `::${level} ${properties.join(',')}::${data(`${entry.where}: ${message}`)}\n`;
  };
  const lines = [
    ...(await Promise.all(report.violations.map((found) => command('error', found, found.message)))),
    ...(await Promise.all(report.changes.map((change) => command(levelOf(change), change, change.message)))),
  ];
  return `${lines.join('')}Changes from ${report.base} to ${report.revision}: ${summaryLine(report)}\n`;
}
