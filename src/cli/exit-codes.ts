/**
 * The exit codes of every `boardkit` command, one rule (README "Exit codes"): 0 ok, 1 the thing tested
 * failed (lint findings, stale artefacts, a breaking change, a failed requirement or check, a delivery
 * refused), 2 the command could not run (a usage error such as a mistyped flag, an unreadable file, a
 * busy port, a refused option value, a target that never answered). CI can then tell a broken target
 * from a broken invocation.
 * @module
 */
import { CommanderError, type Command } from 'commander';

export const exitCodes = { ok: 0, failed: 1, couldNotRun: 2 } as const;

/**
 * Routes commander's own exits (help, version, usage errors) through `CommanderError` for every command
 * and subcommand: commander exits 1 on a usage error by default, which the rule keeps for failures.
 */
export function throwOnUsageErrors(program: Command): Command {
  program.exitOverride();
  program.commands.forEach(throwOnUsageErrors);
  return program;
}

/**
 * The exit code of an error that ended a command: commander's help and version exits keep their 0, its
 * usage errors (already printed) and anything else thrown mean the command could not run.
 */
export function exitCodeOf(error: unknown): number {
  return error instanceof CommanderError && error.exitCode === 0 ? exitCodes.ok : exitCodes.couldNotRun;
}

interface SystemError extends Error {
  code?: string;
  path?: string;
  address?: string;
  port?: number;
}

/** What the user can act on in Node's system errors, which otherwise read `listen EADDRINUSE: …`. */
const systemMessages: Record<string, (error: SystemError) => string> = {
  EADDRINUSE: (error) =>
    `${error.address ?? 'the address'}:${String(error.port ?? '')} is already in use; choose another port with --port`,
  EADDRNOTAVAIL: (error) =>
    `${error.address ?? 'the address'} is not an address of this machine; choose another with --host`,
  EACCES: (error) =>
    error.path === undefined ? `permission denied: ${error.message}` : `cannot open ${error.path}: permission denied`,
  ENOENT: (error) =>
    error.path === undefined ? error.message : `cannot read ${error.path}: no such file or directory`,
  EISDIR: (error) => `${error.path ?? 'the path'} is a folder, not a file`,
};

/** The message a thrown error prints: commander has printed its own; others print as `boardkit: …`, no stack. */
export function messageOf(error: unknown): string | undefined {
  if (error instanceof CommanderError) {
    return undefined;
  }
  if (!(error instanceof Error)) {
    return `boardkit: ${String(error)}\n`;
  }
  const plain = systemMessages[(error as SystemError).code ?? ''];
  return `boardkit: ${plain === undefined ? error.message : plain(error)}\n`;
}
