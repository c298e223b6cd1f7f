/**
 * The virtual environment the kit manages for package users: the pinned Schemathesis in
 * `<user cache>/boardkit/schemathesis-<version>/`, created on first use. A new pin gets a new folder, so
 * an upgrade never runs against a half-updated environment.
 *
 * A folder counts as ready only once its marker file is written, after pip succeeded; a folder without
 * it (an interrupted first run) is removed and built again. Two runs starting at once take turns through
 * a lock folder (`mkdir` is atomic): the second waits for the first to finish instead of building too.
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { userCacheDir } from './cache-dir.js';
import { findPython, pinnedSchemathesis, requirementsFile, runProgram } from './python.js';

const markerFile = '.boardkit-ready';
/** A lock older than this was left by a run that died; pip needs far less even on a slow network. */
const staleLockMs = 15 * 60_000;
const lockPollMs = 500;

export interface ManagedVenvOptions {
  /** The folder the environments live in; the user's cache directory by default. */
  cacheDir?: string;
  /** Receives one line per step (the command prints them on stderr). */
  onProgress?: (line: string) => void;
}

/** The environment's folder for the pinned version. */
export function managedVenvDir(cacheDir: string = userCacheDir(), version: string = pinnedSchemathesis()): string {
  return join(cacheDir, `schemathesis-${version}`);
}

function venvBinary(venv: string, name: string): string {
  return process.platform === 'win32' ? join(venv, 'Scripts', `${name}.exe`) : join(venv, 'bin', name);
}

async function isReady(venv: string, version: string): Promise<boolean> {
  const marker = await readFile(join(venv, markerFile), 'utf8').catch(() => undefined);
  return marker?.trim() === version && existsSync(venvBinary(venv, 'schemathesis'));
}

async function checked(step: string, output: Promise<{ code: number; stdout: string; stderr: string }>): Promise<void> {
  const result = await output;
  if (result.code !== 0) {
    throw new Error(`${step} failed (exit ${String(result.code)}):\n${(result.stderr || result.stdout).trim()}`);
  }
}

async function build(venv: string, version: string, onProgress: (line: string) => void): Promise<void> {
  const python = await findPython();
  onProgress(
    `boardkit fuzz: first use: installing Schemathesis ${version} into ${venv} (Python ${python.version}); this takes a minute`,
  );
  await rm(venv, { recursive: true, force: true });
  const venvStep = runProgram(python.command, ['-m', 'venv', venv], 5 * 60_000);
  await checked(
    `${python.command} -m venv (Debian and Ubuntu ship it separately: apt-get install python3-venv)`,
    venvStep,
  );
  // --no-compile: Python compiles what Schemathesis imports on first use, not every module of every package.
  const pip = [
    '-m',
    'pip',
    'install',
    '--quiet',
    '--no-compile',
    '--disable-pip-version-check',
    '--no-input',
    '-r',
    requirementsFile,
  ];
  await checked('pip install of Schemathesis', runProgram(venvBinary(venv, 'python'), pip, staleLockMs));
  await writeFile(join(venv, markerFile), `${version}\n`);
  onProgress(`boardkit fuzz: Schemathesis ${version} is ready in ${venv}`);
}

/** Takes the lock, or waits while another run holds it; resolves with true once this run holds it. */
async function lock(lockDir: string, venv: string, version: string): Promise<boolean> {
  for (;;) {
    try {
      await mkdir(lockDir);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
    }
    if (await isReady(venv, version)) {
      return false;
    }
    const held = await stat(lockDir).catch(() => undefined);
    if (held !== undefined && Date.now() - held.mtimeMs > staleLockMs) {
      await rm(lockDir, { recursive: true, force: true });
      continue;
    }
    await new Promise((resolvePromise) => setTimeout(resolvePromise, lockPollMs));
  }
}

/** The managed environment's `schemathesis`, built first when it is missing or incomplete. */
export async function managedSchemathesis(options: ManagedVenvOptions = {}): Promise<string> {
  const version = pinnedSchemathesis();
  const cacheDir = options.cacheDir ?? userCacheDir();
  const venv = managedVenvDir(cacheDir, version);
  if (await isReady(venv, version)) {
    return venvBinary(venv, 'schemathesis');
  }
  await mkdir(cacheDir, { recursive: true });
  const lockDir = `${venv}.lock`;
  if (await lock(lockDir, venv, version)) {
    try {
      if (!(await isReady(venv, version))) {
        await build(venv, version, options.onProgress ?? (() => undefined));
      }
    } finally {
      await rm(lockDir, { recursive: true, force: true });
    }
  }
  return venvBinary(venv, 'schemathesis');
}
