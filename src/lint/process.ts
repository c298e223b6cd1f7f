/**
 * Runs a dependency's command-line tool as a child process: the bin file the installed package declares,
 * started with this Node binary (never `npx`, never a global install).
 * @module
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The bin file `bin` of the installed package `name`, resolved like any dependency of the kit. */
export function packageBin(name: string, bin: string): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve(`${name}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const file = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[bin];
  if (file === undefined) {
    throw new Error(`${name} declares no \`${bin}\` bin`);
  }
  return join(dirname(manifestPath), file);
}

export interface ProcessOutput {
  /** Exit code; `null` when the process was ended by a signal. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <script> ...args` in `cwd` and collects its output; rejects only if it cannot start. */
export function runNode(
  script: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<ProcessOutput> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** Redocly prints a boxed Node-version banner on stderr; it is noise in error messages. */
export function withoutBanner(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !/[║╔╚]/.test(line))
    .join('\n')
    .trim();
}
