/**
 * `boardkit diff`: the breaking-change guard. Compares the contract with the last released copy and exits
 * 1 on a breaking change that `openapi/CHANGELOG.md` does not declare (docs/versioning.md). With `--root`
 * it checks a designer's copy or fork of the split source against the `released/` copy and the
 * changelog kept beside that root file.
 * @module
 */
import { join, relative, resolve } from 'node:path';
import { Command } from 'commander';
import { contractSource } from '../contract-source.js';

interface DiffOptions {
  base?: string;
  head?: string;
  changelog?: string;
  root?: string;
}

/** A path as the user reads it: relative to the folder the command runs in when it lies below it. */
function shown(path: string): string {
  const near = relative(process.cwd(), path);
  return near === '' || near.startsWith('..') ? path : near;
}

export function diffCommand(): Command {
  return new Command('diff')
    .description('compare the contract with the released copy; exit 1 on an undeclared breaking change')
    .option(
      '--root <file>',
      'check this split source, e.g. your copy of openapi/openapi.yaml (default: the packaged contract)',
    )
    .option('--base <file>', 'the released contract (default: released/v1.json beside the contract root)')
    .option(
      '--head <file>',
      'the bundled contract to check instead of a split source (default: the packaged openapi/dist/openapi.json)',
    )
    .option(
      '--changelog <file>',
      'where breaking changes are declared (default: CHANGELOG.md beside the contract root)',
    )
    .action(async (options: DiffOptions) => {
      const { checkRelease, declarationLine } = await import('../../docs/breaking/index.js');
      const source = await contractSource(options.root);
      try {
        const paths = {
          base: resolve(options.base ?? join(source.sourceFolder, 'released', 'v1.json')),
          changelog: resolve(options.changelog ?? join(source.sourceFolder, 'CHANGELOG.md')),
          head: resolve(options.head ?? source.json),
        };
        const { declared, undeclared } = await checkRelease(paths);
        const line = (change: (typeof declared)[number]): string =>
          `  ${change.rule}  ${change.operation}  ${change.where}\n`;
        if (declared.length > 0) {
          process.stdout.write(`Declared breaking changes (${declared.length}):\n${declared.map(line).join('')}`);
        }
        if (undeclared.length === 0) {
          process.stdout.write(`No undeclared breaking change against ${shown(paths.base)}.\n`);
          return;
        }
        const suggestions = [...new Set(undeclared.map(declarationLine))].join('\n');
        process.stdout.write(
          `Undeclared breaking changes (${undeclared.length}):\n${undeclared.map(line).join('')}\n` +
            `Breaking changes belong in a new path version (/v2). To ship one in /v1 anyway, declare it under\n` +
            `"## Unreleased" in ${shown(paths.changelog)}:\n${suggestions}\n`,
        );
        process.exitCode = 1;
      } finally {
        await source.dispose();
      }
    });
}
