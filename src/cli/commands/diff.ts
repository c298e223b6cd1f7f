/**
 * `boardkit diff`: the breaking-change guard. Compares the contract with the last released copy and exits
 * 1 on a breaking change that `openapi/CHANGELOG.md` does not declare (docs/versioning.md).
 * @module
 */
import { relative, resolve } from 'node:path';
import { Command } from 'commander';
import { packageRoot } from '../../contract/paths.js';

interface DiffOptions {
  base?: string;
  head?: string;
  changelog?: string;
}

export function diffCommand(): Command {
  return new Command('diff')
    .description('compare the contract with the released copy; exit 1 on an undeclared breaking change')
    .option('--base <file>', 'the released contract (default: openapi/released/v1.json)')
    .option('--head <file>', 'the contract to check (default: openapi/dist/openapi.json)')
    .option('--changelog <file>', 'where breaking changes are declared (default: openapi/CHANGELOG.md)')
    .action(async (options: DiffOptions) => {
      const { checkRelease, declarationLine, releasePaths } = await import('../../docs/breaking/index.js');
      const paths = {
        base: resolve(options.base ?? releasePaths.released),
        changelog: resolve(options.changelog ?? releasePaths.changelog),
        ...(options.head === undefined ? {} : { head: resolve(options.head) }),
      };
      const { declared, undeclared } = await checkRelease(paths);
      const line = (change: (typeof declared)[number]): string => `  ${change.rule}  ${change.operation}  ${change.where}\n`;
      if (declared.length > 0) {
        process.stdout.write(`Declared breaking changes (${declared.length}):\n${declared.map(line).join('')}`);
      }
      if (undeclared.length === 0) {
        process.stdout.write(`No undeclared breaking change against ${relative(packageRoot, paths.base) || paths.base}.\n`);
        return;
      }
      const suggestions = [...new Set(undeclared.map(declarationLine))].join('\n');
      process.stdout.write(
        `Undeclared breaking changes (${undeclared.length}):\n${undeclared.map(line).join('')}\n` +
          `Breaking changes belong in a new path version (/v2). To ship one in /v1 anyway, declare it under\n` +
          `"## Unreleased" in ${relative(packageRoot, paths.changelog) || paths.changelog}:\n${suggestions}\n`,
      );
      process.exitCode = 1;
    });
}
