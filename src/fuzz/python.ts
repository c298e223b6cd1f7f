/**
 * Running the Python side of `boardkit fuzz`: a program's output, Schemathesis's version, the pinned
 * version, and an interpreter new enough for it.
 * @module
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../contract/paths.js';

/** The pinned Schemathesis (`schemathesis==X.Y.Z`), installed by `npm run setup` and the managed environment. */
export const requirementsFile = join(packageRoot, 'conformance', 'schemathesis', 'requirements.txt');

/** Schemathesis 4.32 declares `Requires-Python: >=3.11`; an older interpreter cannot install it. */
export const minimumPython: readonly [number, number] = [3, 11];

/** Interpreters tried in order, the newest first; `python` last, as on Windows and in some images. */
const pythonCandidates = ['python3.13', 'python3.12', 'python3.11', 'python3', 'python'];

export function pinnedSchemathesis(file: string = requirementsFile): string {
  const match = /^schemathesis==([0-9][0-9.]*)\s*$/m.exec(readFileSync(file, 'utf8'));
  if (match?.[1] === undefined) {
    throw new Error(`${file} pins no schemathesis version`);
  }
  return match[1];
}

export interface ProgramOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to completion; a program that cannot start counts as exit code 127. */
export function runProgram(command: string, args: readonly string[], timeoutMs = 60_000): Promise<ProgramOutput> {
  return new Promise((resolvePromise) => {
    execFile(
      command,
      args,
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 127;
        resolvePromise({ code, stdout: String(stdout), stderr: String(stderr) || (error?.message ?? '') });
      },
    );
  });
}

/** The version a `schemathesis` executable reports (`schemathesis, version 4.32.5`), or undefined. */
export async function schemathesisVersion(executable: string): Promise<string | undefined> {
  const output = await runProgram(executable, ['--version']);
  return output.code === 0 ? /version\s+(\S+)/.exec(output.stdout)?.[1] : undefined;
}

export interface Python {
  command: string;
  version: string;
}

/** `major.minor.patch` of an interpreter, or undefined when it does not run. */
async function pythonVersion(command: string): Promise<string | undefined> {
  const output = await runProgram(command, ['-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])']);
  return output.code === 0 ? output.stdout.trim() : undefined;
}

function newEnough(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > minimumPython[0] || (major === minimumPython[0] && minor >= minimumPython[1]);
}

/**
 * The first interpreter on PATH new enough for the pinned Schemathesis. The error names what was found,
 * so a machine with only an old Python says so instead of failing inside pip.
 */
export async function findPython(candidates: readonly string[] = pythonCandidates): Promise<Python> {
  const tooOld: string[] = [];
  for (const command of candidates) {
    const version = await pythonVersion(command);
    if (version === undefined) {
      continue;
    }
    if (newEnough(version)) {
      return { command, version };
    }
    tooOld.push(`${command} ${version}`);
  }
  const wanted = `Python ${minimumPython.join('.')} or later`;
  const found = tooOld.length === 0 ? 'no Python was found on PATH' : `only ${tooOld.join(', ')} was found`;
  throw new Error(
    `boardkit fuzz installs Schemathesis ${pinnedSchemathesis()} on first use and needs ${wanted} for it, but ${found}. ` +
      `Install ${wanted}, or pass --schemathesis PATH to a schemathesis ${pinnedSchemathesis()} you installed yourself (docs/fuzzing.md).`,
  );
}
