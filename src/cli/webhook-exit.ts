/**
 * Usage checks and the exit code of `boardkit webhooks` commands that could not run (2, the rule of
 * `exit-codes.ts`).
 * @module
 */
import { exitCodes } from './exit-codes.js';

/** The tool could not run: bad options, a refused URL, a receiver that never answered. */
export const exitCouldNotRun = exitCodes.couldNotRun;

/** Reports a failure to run on stderr with the command's name, and sets exit code 2. */
export function couldNotRun(command: string, error: unknown): void {
  process.stderr.write(`boardkit webhooks ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = exitCouldNotRun;
}

/** `--url` and `--secret`, both required; a missing one is a usage error (exit code 2), not a crash. */
export function requireTarget(options: { url?: string | undefined; secret?: string | undefined }): {
  url: string;
  secret: string;
} {
  if (options.url === undefined || options.secret === undefined || options.secret === '') {
    throw new Error('--url and --secret are required');
  }
  return { url: options.url, secret: options.secret };
}
