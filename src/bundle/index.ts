/**
 * The generated artefacts of the contract, committed with it and checked fresh by `boardkit bundle
 * --check` and the artefacts test:
 * 1. `openapi/dist/openapi.yaml`, the split contract bundled by Redocly into one file;
 * 2. `openapi/dist/openapi.json`, the same document as JSON;
 * 3. `src/generated/openapi.ts`, its TypeScript types.
 * @module
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { artefactPaths, contractRoot } from '../contract/paths.js';
import { normalise, toJson, toYaml } from './document.js';
import { redoclyBundle } from './redocly.js';
import { generateTypes } from './types.js';

export interface Artefact {
  /** Path relative to the folder the artefacts are written to. */
  path: string;
  content: string;
}

export interface RenderOptions {
  /** The contract's root file; `openapi/openapi.yaml` by default. */
  root?: string;
}

/**
 * The contract bundled by Redocly into one document, normalised as the artefacts hold it; only a scratch
 * file in the OS's temporary folder is written (the watch modes serve it without touching `dist/`).
 */
export async function bundleDocument(root: string = contractRoot): Promise<Record<string, unknown>> {
  const scratch = await mkdtemp(join(tmpdir(), 'boardkit-bundle-'));
  try {
    const bundledFile = join(scratch, 'openapi.yaml');
    await redoclyBundle(root, bundledFile);
    return normalise(parse(await readFile(bundledFile, 'utf8')) as Record<string, unknown>);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Bundles the contract and renders every artefact in memory; nothing in the package is written. */
export async function renderArtefacts(options: RenderOptions = {}): Promise<Artefact[]> {
  const document = await bundleDocument(options.root ?? contractRoot);
  return [
    { path: artefactPaths.bundledYaml, content: toYaml(document) },
    { path: artefactPaths.bundledJson, content: toJson(document) },
    { path: artefactPaths.generatedTypes, content: await generateTypes(document) },
  ];
}

export async function writeArtefacts(artefacts: Artefact[], target: string): Promise<void> {
  for (const artefact of artefacts) {
    const file = join(target, artefact.path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, artefact.content);
  }
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw error;
  }
}

/** The artefacts whose file under `target` is missing or differs from the fresh rendering. */
export async function staleArtefacts(artefacts: Artefact[], target: string): Promise<string[]> {
  const stale: string[] = [];
  for (const artefact of artefacts) {
    const current = await readIfPresent(join(target, artefact.path));
    if (current !== artefact.content) {
      stale.push(artefact.path);
    }
  }
  return stale;
}
