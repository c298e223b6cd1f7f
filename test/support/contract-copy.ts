/**
 * A temporary copy of the contract's split source, for tests that edit it (the watch modes): the YAML
 * only, without the bundled `dist/` and the `released/` copy the source does not need.
 */
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/contract/paths.js';

/** Copies `openapi/` into a new temporary folder named after `prefix`; returns the folder. */
export async function copyContractSource(prefix: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  const skip = ['dist', 'released'].map((name) => join(packageRoot, 'openapi', name));
  await cp(join(packageRoot, 'openapi'), join(folder, 'openapi'), {
    recursive: true,
    filter: (source) => !skip.some((skipped) => source.startsWith(skipped)),
  });
  return folder;
}
