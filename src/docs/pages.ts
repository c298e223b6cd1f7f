/**
 * The documentation pages generated from the bundled contract, committed with it and checked fresh by
 * `boardkit docs --check` and the tests (like the bundle's artefacts): the variant map, the provenance
 * report and the error catalog.
 * @module
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { OpenApiDocument } from '../contract/load.js';
import { errorsPath, renderErrors } from './errors.js';
import { provenancePath, renderProvenance } from './provenance.js';
import { renderVariantMap, variantMapPath } from './variant-map.js';

export interface GeneratedPage {
  /** Path relative to the folder the pages are written to, e.g. `docs/variant-map.md`. */
  path: string;
  content: string;
}

export const generatedPagePaths = [variantMapPath, provenancePath, errorsPath] as const;

export function renderPages(document: OpenApiDocument): GeneratedPage[] {
  return [
    { path: variantMapPath, content: renderVariantMap(document) },
    { path: provenancePath, content: renderProvenance(document) },
    { path: errorsPath, content: renderErrors(document) },
  ];
}

export async function writePages(pages: GeneratedPage[], target: string): Promise<void> {
  for (const page of pages) {
    const file = join(target, page.path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, page.content);
  }
}

/** The pages whose file under `target` is missing or differs from the fresh rendering. */
export async function stalePages(pages: GeneratedPage[], target: string): Promise<string[]> {
  const stale: string[] = [];
  for (const page of pages) {
    const current = await readFile(join(target, page.path), 'utf8').catch(() => undefined);
    if (current !== page.content) {
      stale.push(page.path);
    }
  }
  return stale;
}
