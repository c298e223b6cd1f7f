/**
 * `boardkit bundle`: writes the bundled contract and its generated types (see src/bundle), or with
 * `--check` compares them with the files on disk and writes nothing. The artefacts go under the folder the
 * command runs in (or `--out-dir`), never into the package: in this repository that is its root, in a
 * designer's project it is theirs.
 * @module
 */
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { Command } from 'commander';
import { contractRoot } from '../../contract/paths.js';
import { commandLine } from '../command-line.js';

interface BundleOptions {
  check?: boolean;
  root?: string;
  outDir?: string;
}

/**
 * Without `--root` the packaged contract is bundled. In a project that holds its own copy of the
 * contract that is most likely a slip, and writing would replace the artefacts of that copy: refuse,
 * naming the command that bundles the copy.
 */
function refuseToHideOwnContract(options: BundleOptions): void {
  const own = resolve('openapi', 'openapi.yaml');
  if (options.root === undefined && options.check !== true && own !== contractRoot && existsSync(own)) {
    const yours = commandLine('bundle', { '--root': relative('.', own), '--out-dir': options.outDir });
    const packaged = commandLine('bundle', { '--root': relative('.', contractRoot), '--out-dir': options.outDir });
    throw new Error(
      `this folder has its own contract (openapi/openapi.yaml), and without --root the packaged one would overwrite its artefacts. Run \`${yours}\` to bundle yours, or \`${packaged}\` to bundle the packaged one here.`,
    );
  }
}

export function bundleCommand(): Command {
  return new Command('bundle')
    .description('bundle openapi/ into openapi/dist/openapi.{yaml,json} and generate src/generated/openapi.ts')
    .option('--check', 'write nothing; exit 1 listing the artefacts that are stale')
    .option(
      '--root <file>',
      'contract root file, e.g. your copy of openapi/openapi.yaml (default: the packaged contract)',
    )
    .option('--out-dir <dir>', 'write or check the artefacts under this folder (default: the current folder)')
    .action(async (options: BundleOptions) => {
      refuseToHideOwnContract(options);
      // Loaded on use: openapi-typescript pulls in the TypeScript compiler.
      const { renderArtefacts, staleArtefacts, writeArtefacts } = await import('../../bundle/index.js');
      const artefacts = await renderArtefacts(options.root === undefined ? {} : { root: resolve(options.root) });
      const target = resolve(options.outDir ?? '.');
      if (options.check === true) {
        const stale = await staleArtefacts(artefacts, target);
        if (stale.length > 0) {
          const list = stale.map((path) => `  ${path}\n`).join('');
          const again = commandLine('bundle', { '--root': options.root, '--out-dir': options.outDir });
          process.stdout.write(`Stale artefacts (run \`${again}\` and commit them):\n${list}`);
          process.exitCode = 1;
        } else {
          process.stdout.write(`All ${artefacts.length} artefacts are fresh.\n`);
        }
        return;
      }
      await writeArtefacts(artefacts, target);
      process.stdout.write(artefacts.map((artefact) => `Wrote ${artefact.path}\n`).join(''));
    });
}
