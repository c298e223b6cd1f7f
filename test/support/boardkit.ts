/**
 * Runs the `boardkit` command as users run it: `node bin/boardkit.js …` on the built `lib/` (`npm test`
 * builds first), from the package root, collecting its output and exit code.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/contract/paths.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `env` is merged over the test process's environment; `input`, when given, is written to standard input;
 * `cwd` is the folder it runs in (the package root by default).
 */
export function runBoardkit(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  input?: string | Buffer,
  cwd: string = packageRoot,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(packageRoot, 'bin', 'boardkit.js'), ...args], {
      cwd,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) {
      child.stdin.end(input);
    }
  });
}
