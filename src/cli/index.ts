/**
 * The `boardkit` command line. Each subcommand lives in its own module under `commands/`.
 * @module
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { packageJson } from '../contract/paths.js';
import { bundleCommand } from './commands/bundle.js';
import { conformanceCommand } from './commands/conformance.js';
import { diffCommand } from './commands/diff.js';
import { docsCommand } from './commands/docs.js';
import { fuzzCommand } from './commands/fuzz.js';
import { lintCommand } from './commands/lint.js';
import { mockCommand } from './commands/mock.js';
import { proxyCommand } from './commands/proxy.js';
import { scaffoldHandlersCommand } from './commands/scaffold-handlers.js';
import { serveCommand } from './commands/serve.js';
import { webhooksCommand } from './commands/webhooks.js';
import { exitCodeOf, messageOf, throwOnUsageErrors } from './exit-codes.js';

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  return manifest.version;
}

export function createProgram(): Command {
  return new Command('boardkit')
    .description('Contract-first kit for the Decision-Board service API')
    .version(packageVersion())
    .addCommand(lintCommand())
    .addCommand(bundleCommand())
    .addCommand(conformanceCommand())
    .addCommand(docsCommand())
    .addCommand(diffCommand())
    .addCommand(fuzzCommand())
    .addCommand(mockCommand())
    .addCommand(proxyCommand())
    .addCommand(serveCommand())
    .addCommand(scaffoldHandlersCommand())
    .addCommand(webhooksCommand());
}

/**
 * Runs the CLI. A command that could not run (a usage error, or anything it threw) ends with a message on
 * stderr, never a stack trace, and exit code 2 (src/cli/exit-codes.ts).
 */
export async function main(argv: string[] = process.argv): Promise<void> {
  // Output piped into a reader that stops early (`boardkit diff | head`): the reader has what it wanted, so
  // end quietly instead of with an unhandled EPIPE.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') {
      throw error;
    }
    process.exit(process.exitCode ?? 0);
  });
  try {
    await throwOnUsageErrors(createProgram()).parseAsync(argv);
  } catch (error) {
    const message = messageOf(error);
    if (message !== undefined) {
      process.stderr.write(message);
    }
    process.exitCode = exitCodeOf(error);
  }
}
