/**
 * `boardkit serve` as the soak runs it: a child process on a database file, as users start it, with the
 * API calls the soak makes and the resident memory it watches.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accepts, freePort, root } from '../support/autocannon.mjs';

/** The resident memory of a process (Linux /proc), in MiB. */
export function residentMiB(pid) {
  const kilobytes = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kilobytes) / 1024;
}

/** `boardkit serve` on a database file in `folder`, resolved once it accepts connections. */
export async function serve(folder, keys, scale) {
  const port = await freePort();
  const args = [
    'bin/boardkit.js',
    'serve',
    '--port',
    String(port),
    '--db',
    join(folder, 'board.db'),
    '--time-scale',
    String(scale),
  ];
  const child = spawn(
    process.execPath,
    [...args, ...keys.flatMap((key) => ['--api-key', key]), '--allow-private-webhook-urls'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise((done) => child.once('exit', done));
  while (!(await accepts(port))) {
    if (child.exitCode !== null) {
      throw new Error('boardkit serve exited before listening');
    }
    await new Promise((wake) => setTimeout(wake, 50));
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function call(baseUrl, key, path, { method = 'GET', json, idempotencyKey } = {}) {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
}

/** A start request (variant A) of `rounds` rounds by two Synths. */
export const lineup = (title, rounds) => ({ mode: 'boardroom', title, synths: ['cfo', 'skeptic'], rounds });
