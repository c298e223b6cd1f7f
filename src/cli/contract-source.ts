/**
 * Which contract a designer's command works on: the one shipped in the package, or, with `--root`, their
 * own copy or fork of the split source (`lint`, `bundle`, `docs` and `diff` take it). A `--root` contract
 * is bundled in memory into a scratch folder outside the project and outside the package, so that the
 * commands read it exactly as they read the packaged `openapi/dist/` files, and nothing is left behind.
 * @module
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { loadContract, parseContract, type OpenApiDocument } from '../contract/load.js';
import { artefactPaths, bundledJson, packageRoot } from '../contract/paths.js';

export interface ContractSource {
  /** The bundled document, parsed. */
  document: OpenApiDocument;
  /** The bundled document as JSON and as YAML files (in the package, or in the scratch folder). */
  json: string;
  yaml: string;
  /** The folder of the split source's root file: a fork keeps `released/` and `CHANGELOG.md` there. */
  sourceFolder: string;
  /** Removes the scratch folder, if any. */
  dispose(): Promise<void>;
}

/** The packaged contract, or the one under `root` (a path relative to the working directory) bundled now. */
export async function contractSource(root: string | undefined): Promise<ContractSource> {
  if (root === undefined) {
    return {
      document: loadContract(),
      json: bundledJson,
      yaml: join(packageRoot, artefactPaths.bundledYaml),
      sourceFolder: join(packageRoot, 'openapi'),
      dispose: () => Promise.resolve(),
    };
  }
  const rootFile = resolve(root);
  // Loaded on use: openapi-typescript pulls in the TypeScript compiler.
  const { renderArtefacts } = await import('../bundle/index.js');
  const artefacts = await renderArtefacts({ root: rootFile });
  const content = (path: string): string => artefacts.find((artefact) => artefact.path === path)?.content ?? '';
  const scratch = await mkdtemp(join(tmpdir(), 'boardkit-source-'));
  const json = join(scratch, 'openapi.json');
  const yaml = join(scratch, 'openapi.yaml');
  await writeFile(json, content(artefactPaths.bundledJson));
  await writeFile(yaml, content(artefactPaths.bundledYaml));
  return {
    document: parseContract(content(artefactPaths.bundledJson), rootFile),
    json,
    yaml,
    sourceFolder: dirname(rootFile),
    dispose: () => rm(scratch, { recursive: true, force: true }),
  };
}
