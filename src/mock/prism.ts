/**
 * Runs the pinned `@stoplight/prism-cli` (a dependency of this package, never a global install) as a child
 * process: its own bin file under this Node (`process.execPath`), so no shell, `npx` or PATH lookup is
 * involved. Readiness is the listening port: Prism opens it only after it has loaded the whole document,
 * and at `-v warn` it prints nothing when it is ready.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** Where Prism's output goes: the caller's terminal, or a buffer kept for error messages and tests. */
export type PrismOutput = 'inherit' | 'pipe';

export interface PrismLaunch {
  /** The arguments after `prism`, e.g. `['mock', file, '--errors']`. Host and port are added here. */
  args: string[];
  host: string;
  port: number;
  output: PrismOutput;
  /** How long Prism may take to load the document and listen (default 120 s). */
  readyTimeoutMs?: number;
}

export interface PrismProcess {
  /** `http://host:port`, the address Prism listens on. */
  baseUrl: string;
  child: ChildProcess;
  /** The latest output of Prism (stdout and stderr, at most 64 KiB) when it is piped. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once Prism has exited. */
  exited: Promise<number | string | null>;
  /** Stops Prism (SIGTERM, then SIGKILL after a grace period) and waits for it to exit. */
  stop(): Promise<void>;
}

const outputLimit = 64 * 1024;

/** The JavaScript file of the `prism` bin of the installed `@stoplight/prism-cli`. */
export function prismEntry(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@stoplight/prism-cli/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin['prism'];
  if (bin === undefined) {
    throw new Error('@stoplight/prism-cli declares no `prism` bin');
  }
  return join(dirname(manifestPath), bin);
}

/** The version of the installed Prism (package.json pins it exactly). */
export function prismVersion(): string {
  const require = createRequire(import.meta.url);
  const manifest = JSON.parse(readFileSync(require.resolve('@stoplight/prism-cli/package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** `http://host:port`, with an IPv6 host in brackets (RFC 3986 §3.2.2). */
export function baseUrlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** A port that was free on `host` a moment ago (the OS picks it for a listener on port 0). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Whether `host:port` accepts a TCP connection now. */
export function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** Resolves once `host:port` accepts connections; rejects if `exited` settles first or time runs out. */
async function waitForListening(
  host: string,
  port: number,
  exited: Promise<unknown>,
  timeoutMs: number,
): Promise<void> {
  let stopped = false;
  const died = exited.then(() => {
    stopped = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (!stopped) {
    if (await canConnect(host, port)) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`Prism did not listen on ${host}:${port} within ${timeoutMs} ms`);
    }
    // Poll again shortly, or stop at once if Prism exits meanwhile.
    await Promise.race([died, new Promise((wake) => setTimeout(wake, 50))]);
  }
  throw new Error('Prism exited before it listened');
}

export async function startPrism(launch: PrismLaunch): Promise<PrismProcess> {
  // Readiness is a successful connection, so a port some other server holds would look ready at once.
  if (await canConnect(launch.host, launch.port)) {
    throw new Error(`${launch.host}:${launch.port} is already in use; choose another port`);
  }
  const args = [prismEntry(), ...launch.args, '--host', launch.host, '--port', String(launch.port)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', launch.output, launch.output] });
  let buffer = '';
  // A piped child must always be drained, or Prism blocks once the pipe is full.
  const keep = (chunk: string): void => {
    buffer = (buffer + chunk).slice(-outputLimit);
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  const exited = new Promise<number | string | null>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit(code ?? signal));
    child.once('error', (error) => {
      keep(`${error.message}\n`);
      resolveExit(null);
    });
  });

  async function stop(): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) {
      return;
    }
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  }

  try {
    await waitForListening(launch.host, launch.port, exited, launch.readyTimeoutMs ?? 120_000);
  } catch (error) {
    await stop();
    const detail = buffer.trim() === '' ? '' : `\n${buffer.trim()}`;
    throw new Error(`${error instanceof Error ? error.message : String(error)}${detail}`, { cause: error });
  }
  return { baseUrl: baseUrlOf(launch.host, launch.port), child, output: () => buffer, exited, stop };
}
