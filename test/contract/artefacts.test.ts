/**
 * The committed artefacts (openapi/dist/openapi.{yaml,json}, src/generated/openapi.ts) must equal what
 * `boardkit bundle` produces from the contract now: a fresh bundle is written to a temporary folder and
 * compared file by file.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderArtefacts, writeArtefacts, type Artefact } from '../../src/bundle/index.js';
import { artefactPaths, packageRoot } from '../../src/contract/paths.js';

/** The first line where two texts differ, or `undefined` when they are equal. */
function firstDifference(committed: string, fresh: string): string | undefined {
  if (committed === fresh) {
    return undefined;
  }
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const line = a.findIndex((text, index) => text !== b[index]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at])}, fresh ${JSON.stringify(b[at])}`;
}

describe('artefacts', () => {
  let scratch: string;
  let artefacts: Artefact[];

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'boardkit-artefacts-'));
    artefacts = await renderArtefacts();
    await writeArtefacts(artefacts, scratch);
  });

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  test('are the three committed files', () => {
    expect(artefacts.map((artefact) => artefact.path)).toEqual(Object.values(artefactPaths));
  });

  test.each(Object.values(artefactPaths))('%s is fresh (run `npm run bundle`)', async (path) => {
    const committed = await readFile(join(packageRoot, path), 'utf8');
    const fresh = await readFile(join(scratch, path), 'utf8');
    const difference = firstDifference(committed, fresh);
    if (difference !== undefined) {
      expect.fail(`${path} is stale at ${difference}`);
    }
  });

  test('JSON and YAML hold the same document', async () => {
    const { parse } = await import('yaml');
    const yaml = await readFile(join(scratch, artefactPaths.bundledYaml), 'utf8');
    const json = await readFile(join(scratch, artefactPaths.bundledJson), 'utf8');
    expect(parse(yaml)).toEqual(JSON.parse(json));
  });

  test('bundling is deterministic', async () => {
    expect(await renderArtefacts()).toEqual(artefacts);
  });
});
