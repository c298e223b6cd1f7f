/**
 * Table-driven tests of the house Spectral rules, after Spectral's own `testRule`: each case is a
 * document (a YAML string or a JS object, plus any further files it references) and the findings one rule
 * must report on it. Spectral runs in-process with the real ruleset (openapi/lint/ruleset.yaml) and the
 * `$ref` resolver `boardkit lint` uses.
 */
import fs from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, Spectral, type ISpectralDiagnostic } from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import { bundleAndLoadRuleset } from '@stoplight/spectral-ruleset-bundler/with-loader';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

const lintDir = fileURLToPath(new URL('../../openapi/lint/', import.meta.url));
export const rulesetFile = join(lintDir, 'ruleset.yaml');

type Resolver = NonNullable<ConstructorParameters<typeof Spectral>[0]>['resolver'];
const resolver = createRequire(import.meta.url)(join(lintDir, 'resolver.cjs')) as Resolver;

let ruleset: ReturnType<typeof bundleAndLoadRuleset> | undefined;

type Source = string | Record<string, unknown>;

export interface RuleCase {
  name: string;
  /** The root document. */
  document: Source;
  /** Further files, by path relative to the root document, for `$ref`s across files. */
  files?: Record<string, Source>;
  /**
   * What the rule reports, in Spectral's order: the JSON path of each finding in the file it was written in,
   * that file when it is not the root document, and a pattern of its message.
   */
  errors: Array<{ path: Array<string | number>; file?: string; message?: RegExp }>;
}

export type Finding = ISpectralDiagnostic & { file: string };

/**
 * Lints `document` (and `files`) written to a scratch folder; returns every finding of every rule, each with
 * the file it is in relative to that folder.
 */
export async function lint(document: Source, files: Record<string, Source> = {}): Promise<Finding[]> {
  const folder = await mkdtemp(join(tmpdir(), 'boardkit-lint-'));
  try {
    const text = (source: Source): string => (typeof source === 'string' ? source : stringify(source));
    for (const [path, source] of Object.entries(files)) {
      await mkdir(dirname(join(folder, path)), { recursive: true });
      await writeFile(join(folder, path), text(source));
    }
    const rootFile = join(folder, 'openapi.yaml');
    await writeFile(rootFile, text(document));
    ruleset ??= bundleAndLoadRuleset(rulesetFile, { fs, fetch: globalThis.fetch });
    const spectral = new Spectral({ resolver });
    spectral.setRuleset(await ruleset);
    const results = await spectral.run(new Document(text(document), Parsers.Yaml, rootFile));
    return results.map((result) => ({ ...result, file: relative(folder, result.source ?? rootFile) }));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export function testRule(rule: string, cases: RuleCase[]): void {
  describe(rule, () => {
    it.each(cases)('$name', async ({ document, files, errors }) => {
      const found = (await lint(document, files)).filter((result) => result.code === rule);
      const actual = found.map((result) => ({
        path: result.path.map(String),
        file: result.file,
        message: result.message,
        severity: result.severity,
      }));
      // Spectral gives array indices as numbers or strings depending on whether the path went through a $ref.
      const expected = errors.map(({ path, file, message }) => ({
        path: path.map(String),
        file: file ?? 'openapi.yaml',
        message: message === undefined ? expect.any(String) : expect.stringMatching(message),
        severity: 0,
      }));
      expect(actual).toEqual(expected);
    });
  });
}

/** A minimal valid OpenAPI 3.1 document around `parts` (paths, webhooks, components, ...). */
export function openapi(parts: Record<string, unknown>): Record<string, unknown> {
  return {
    openapi: '3.1.1',
    info: { title: 'Fixture', version: '1.0.0', description: 'A fixture.', contact: { name: 'boardkit' } },
    servers: [{ url: 'https://api.decision-board.example' }],
    tags: [{ name: 'Sessions', description: 'Sessions.' }],
    paths: {},
    ...parts,
  };
}
