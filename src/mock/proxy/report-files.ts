/**
 * The report files of a proxy run, written into `--report-dir` as the conformance suite writes its own:
 * `report.json` (the report as is), `junit.xml` and `report.html`.
 * @module
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProxyReport } from './report.js';
import { renderHtml } from './report-html.js';
import { renderJunit } from './report-junit.js';

export const reportFiles = { json: 'report.json', junit: 'junit.xml', html: 'report.html' } as const;

export async function writeReports(report: ProxyReport, folder: string): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const files: Array<[string, string]> = [
    [reportFiles.json, `${JSON.stringify(report, null, 2)}\n`],
    [reportFiles.junit, renderJunit(report)],
    [reportFiles.html, renderHtml(report)],
  ];
  await Promise.all(files.map(([name, text]) => writeFile(join(folder, name), text)));
  return files.map(([name]) => join(folder, name));
}
