/**
 * A stopped command leaves nothing listening, however it was started. Run through `npx`, the command is
 * the child of `sh -c`, which dies on SIGTERM without passing it on; a script's `kill $!` of the npx
 * process must still free the port (src/cli/serving.ts).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { freePort } from '../../src/mock/prism.js';

let project: string;

beforeAll(async () => {
  // A project with boardkit linked into node_modules, as npm links an installed package's bin.
  project = await mkdtemp(join(tmpdir(), 'boardkit-stop-'));
  await writeFile(join(project, 'package.json'), '{ "name": "stop-user", "private": true }\n');
  await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
  await symlink(packageRoot, join(project, 'node_modules', 'boardkit'));
  await symlink(join('..', 'boardkit', 'bin', 'boardkit.js'), join(project, 'node_modules', '.bin', 'boardkit'));
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });
}

/** Resolves once nothing listens on `port`; fails after `limitMs`. */
async function portFreed(port: number, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (await listening(port)) {
    if (Date.now() > deadline) {
      throw new Error(`127.0.0.1:${port} still listens ${limitMs} ms after the stop`);
    }
    await new Promise((next) => setTimeout(next, 50));
  }
}

test('npx boardkit mock stopped by SIGTERM to the npx process frees its port', async () => {
  const port = await freePort();
  const { npm_command: _, ...env } = process.env;
  const npx = spawn('npx', ['--no-install', 'boardkit', 'mock', '--port', String(port)], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((ready, fail) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.includes('listening on')) {
        ready();
      }
    };
    npx.stdout.on('data', onData);
    npx.stderr.on('data', onData);
    npx.on('close', (code) => fail(new Error(`npx exited (${String(code)}) before the mock listened:\n${output}`)));
  });
  expect(await listening(port)).toBe(true);
  npx.kill('SIGTERM');
  // A generous bound: on a loaded machine the mock's own stop takes seconds.
  await portFreed(port, 30_000);
}, 120_000);
