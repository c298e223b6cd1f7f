/**
 * `boardkit bundle`: writes the bundled contract and its generated types (see src/bundle), or with
 * `--check` compares them with the files on disk and writes nothing. The artefacts go under the folder the
 * command runs in (or `--out-dir`), never into the package: in this repository that is its root, in a
 * designer's project it is theirs.
 * @module
 */
import { resolve } from 'node:path';
import { Command } from 'commander';

interface BundleOptions {
  check?: boolean;
  root?: string;
  outDir?: string;
}

export function bundleCommand(): Command {
  return new Command('bundle')
    .description('bundle openapi/ into openapi/dist/openapi.{yaml,json} and generate src/generated/openapi.ts')
    .option('--check', 'write nothing; exit 1 listing the artefacts that are stale')
    .option('--root <file>', 'contract root file, e.g. your copy of openapi/openapi.yaml (default: the packaged contract)')
    .option('--out-dir <dir>', 'write or check the artefacts under this folder (default: the current folder)')
    .action(async (options: BundleOptions) => {
      // Loaded on use: openapi-typescript pulls in the TypeScript compiler.
      const { renderArtefacts, staleArtefacts, writeArtefacts } = await import('../../bundle/index.js');
      const artefacts = await renderArtefacts(options.root === undefined ? {} : { root: resolve(options.root) });
      const target = resolve(options.outDir ?? '.');
      if (options.check === true) {
        const stale = await staleArtefacts(artefacts, target);
        if (stale.length > 0) {
          const list = stale.map((path) => `  ${path}\n`).join('');
          process.stdout.write(`Stale artefacts (run \`boardkit bundle\` and commit them):\n${list}`);
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
