/**
 * `boardkit lint`: Redocly and Spectral over the contract. The bar is zero errors and zero warnings
 * (openapi/README.md "Changing the contract"), so any finding fails the command. The configuration of both
 * tools ships in the package; locations are printed relative to the folder the command runs in.
 * @module
 */
import { resolve } from 'node:path';
import { Command } from 'commander';

interface LintOptions {
  root?: string;
}

export function lintCommand(): Command {
  return new Command('lint')
    .description('lint the contract with Redocly and Spectral; exits 1 on any error or warning')
    .option(
      '--root <file>',
      'contract root file, e.g. your copy of openapi/openapi.yaml (default: the packaged contract)',
    )
    .action(async (options: LintOptions) => {
      // Loaded on use: Redocly and Spectral take a while to import, and `--help` should not wait for them.
      const { formatFindings, lintContract } = await import('../../lint/index.js');
      const result = await lintContract({
        cwd: process.cwd(),
        ...(options.root === undefined ? {} : { root: resolve(options.root) }),
      });
      const report = formatFindings(result);
      process.stdout.write(report.endsWith('\n') ? report : `${report}\n`);
      if (result.errors > 0 || result.warnings > 0) {
        process.exitCode = 1;
      }
    });
}
