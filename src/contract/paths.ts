/**
 * Where the package and its contract artefacts live.
 *
 * Found from this module's own location rather than the working directory, so the same code works from
 * `src/` (vitest runs the TypeScript) and from `lib/src/` (the built CLI, possibly installed elsewhere):
 * the nearest folder above this module that holds a `package.json` is the package root.
 * @module
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, sep } from 'node:path';

function findPackageRoot(from: string): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) {
      return folder.endsWith(sep) ? folder : `${folder}${sep}`;
    }
    if (dirname(folder) === folder) {
      throw new Error(`No package.json above ${from}`);
    }
  }
}

/** The package root (the folder holding `package.json`), with a trailing separator. */
export const packageRoot = findPackageRoot(fileURLToPath(new URL('.', import.meta.url)));

/** Artefact locations relative to a root folder; `bundle --check` compares these files. */
export const artefactPaths = {
  bundledYaml: 'openapi/dist/openapi.yaml',
  bundledJson: 'openapi/dist/openapi.json',
  generatedTypes: 'src/generated/openapi.ts',
} as const;

/** The split source of the contract, as edited by hand. */
export const contractRoot = join(packageRoot, 'openapi', 'openapi.yaml');

/** The bundled contract that the loader, validator, mock and server read. */
export const bundledJson = join(packageRoot, artefactPaths.bundledJson);

export const packageJson = join(packageRoot, 'package.json');
