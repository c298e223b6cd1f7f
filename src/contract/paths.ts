/**
 * Where the package and its contract artefacts live.
 *
 * Found from this module's own location rather than the working directory, so the same code works from
 * `src/` (vitest runs the TypeScript) and from `lib/` (the built CLI, possibly installed elsewhere):
 * both `src/contract/` and `lib/contract/` sit two levels below the package root.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The package root (the folder holding `package.json`). */
export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

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
