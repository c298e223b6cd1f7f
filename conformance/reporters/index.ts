/**
 * Writes the three report files into a folder.
 * @module
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '../harness/results.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';

export const reportFiles = { json: 'report.json', junit: 'junit.xml', html: 'report.html' } as const;

export async function writeReports(result: RunResult, folder: string): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const files: Array<[string, string]> = [
    [reportFiles.json, renderJson(result)],
    [reportFiles.junit, renderJunit(result)],
    [reportFiles.html, renderHtml(result)],
  ];
  await Promise.all(files.map(([name, text]) => writeFile(join(folder, name), text)));
  return files.map(([name]) => join(folder, name));
}
