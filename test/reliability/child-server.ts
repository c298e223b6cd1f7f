/**
 * `boardkit serve` as a child process, as users run it (`node bin/boardkit.js serve` on the built `lib/`),
 * for tests that kill it: started on a free port, stopped with a signal, its resident memory read from
 * /proc. Everything it writes to stderr is kept for the test to check.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/contract/paths.js';

export interface ChildServer {
  baseUrl: string;
  child: ChildProcess;
  stderr(): string;
  /** Sends `signal` and resolves once the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface ChildServerOptions {
  db: string;
  apiKeys: string[];
  timeScale: number;
  /** More `boardkit serve` flags. */
  flags?: string[];
}

/** Starts `boardkit serve` and resolves with its `{base_url}` once it listens. */
export function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const args = [
    join(packageRoot, 'bin', 'boardkit.js'),
    'serve',
    '--port',
    '0',
    '--db',
    options.db,
    '--time-scale',
    String(options.timeScale),
    ...options.apiKeys.flatMap((key) => ['--api-key', key]),
    ...(options.flags ?? []),
  ];
  const child = spawn(process.execPath, args, { cwd: packageRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)?.[0];
      if (url !== undefined) {
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolve({
          baseUrl: url,
          child,
          stderr: () => stderr,
          async kill(signal) {
            if (child.exitCode === null && child.signalCode === null) {
              child.kill(signal);
            }
            await exited;
          },
        });
      }
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`boardkit serve exited (${code ?? signal}) before listening: ${stderr}`)),
    );
  });
}

/** Resident memory of a process in bytes (Linux /proc), or `undefined` where there is no /proc. */
export function residentBytes(pid: number | undefined): number | undefined {
  try {
    const kilobytes = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
  } catch {
    return undefined;
  }
}
