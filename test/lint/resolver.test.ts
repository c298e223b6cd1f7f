/**
 * The `$ref` resolver of `boardkit lint` (openapi/lint/resolver.cjs) resolves every reference of a split
 * contract, also in a file that is referenced from many places (Spectral's stock resolver gives up on the
 * references inside such a file once it has more than 100 referrers).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, Spectral } from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { lint, openapi } from './testRule.js';

type Resolver = NonNullable<ConstructorParameters<typeof Spectral>[0]>['resolver'];
const resolver = createRequire(import.meta.url)(
  fileURLToPath(new URL('../../openapi/lint/resolver.cjs', import.meta.url)),
) as Resolver;

/** 150 operations that all answer a shared response file, whose schema file references one more file. */
const operations = 150;
const files: Record<string, Record<string, unknown>> = {
  'responses/Fault.yaml': {
    description: 'Fault.',
    content: { 'application/problem+json': { schema: { $ref: '../schemas/Problem.yaml' } } },
  },
  'schemas/Problem.yaml': {
    type: 'object',
    properties: { errors: { type: 'array', items: { $ref: './Violation.yaml' } } },
    'x-provenance': 'stated',
  },
  'schemas/Violation.yaml': { type: 'object', required: ['pointer'], 'x-provenance': 'designed' },
};
const document = openapi({
  paths: Object.fromEntries(
    Array.from({ length: operations }, (_, index) => [
      `/v1/things/${String(index)}`,
      { get: { 'x-provenance': 'stated', responses: { '500': { $ref: 'responses/Fault.yaml' } } } },
    ]),
  ),
});

function unresolvedRefs(node: unknown, found: string[] = [], seen = new Set<unknown>()): string[] {
  if (node === null || typeof node !== 'object' || seen.has(node)) return found;
  seen.add(node);
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') found.push(ref);
  for (const value of Object.values(node)) unresolvedRefs(value, found, seen);
  return found;
}

describe('openapi/lint/resolver.cjs', () => {
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'boardkit-resolver-'));
    for (const [path, content] of Object.entries(files)) {
      await mkdir(join(folder, path, '..'), { recursive: true });
      await writeFile(join(folder, path), stringify(content));
    }
    await writeFile(join(folder, 'openapi.yaml'), stringify(document));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('resolves the references inside a file referenced from many places', async () => {
    const rootFile = join(folder, 'openapi.yaml');
    const spectral = new Spectral({ resolver });
    spectral.setRuleset({ rules: {} });
    const { resolved } = await spectral.runWithResolved(
      new Document(await readFile(rootFile, 'utf8'), Parsers.Yaml, rootFile),
    );
    expect(unresolvedRefs(resolved)).toEqual([]);
  });

  it('so the house rules see every schema as written', async () => {
    const findings = (await lint(document, files)).filter((finding) => finding.code === 'provenance-marked');
    expect(findings).toEqual([]);
  });
});
