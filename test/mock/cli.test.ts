/**
 * `boardkit mock` and `boardkit proxy` as users run them: `node bin/boardkit.js …` on the built `lib/`
 * (`npm test` builds first). One mock is started, in dynamic mode, and stopped with SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { canConnect, freePort } from '../../src/mock/prism.js';
import { bearer } from './requests.js';

interface Launched {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
}

/** Runs the CLI; `detached` makes it lead its own process group, as a shell's foreground job does. */
function boardkit(args: string[], detached = false): Launched {
  const bin = join(packageRoot, 'bin', 'boardkit.js');
  const child = spawn(process.execPath, [bin, ...args], { cwd: packageRoot, detached });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** Resolves when the output contains `text`; rejects if the process ends first. */
function waitForOutput(launched: Launched, text: string): Promise<void> {
  return new Promise((done, fail) => {
    const check = (): void => {
      if (launched.stdout().includes(text)) {
        launched.child.stdout?.off('data', check);
        done();
      }
    };
    launched.child.stdout?.on('data', check);
    void launched.exit.then(() => {
      fail(new Error(`exited before printing "${text}":\n${launched.stdout()}\n${launched.stderr()}`));
    });
    check();
  });
}

beforeAll(() => {
  if (!existsSync(join(packageRoot, 'bin', 'boardkit.js'))) {
    throw new Error('bin/boardkit.js is missing');
  }
});

describe('boardkit mock', () => {
  test('prints the base URL and how-to, serves generated bodies with --dynamic, and stops on Ctrl-C', async () => {
    const port = await freePort();
    const mock = boardkit(['mock', '--port', String(port), '--dynamic'], true);
    await waitForOutput(mock, 'Ctrl-C stops the mock.');
    const baseUrl = `http://127.0.0.1:${port}`;
    expect(mock.stdout()).toContain(`  ${baseUrl}    the {base_url} of the contract`);
    expect(mock.stdout()).toContain('Prefer: code=202, example=variant_b');

    const session = `${baseUrl}/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E`;
    const response = await fetch(session, { headers: { Authorization: bearer } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { title?: unknown };
    // Generated, not the `running` example (whose title is "EU launch of the Pro plan").
    expect(body.title).not.toBe('EU launch of the Pro plan');

    // Ctrl-C: the terminal sends SIGINT to the whole foreground process group, Prism included.
    process.kill(-mock.child.pid!, 'SIGINT');
    expect(await mock.exit).toBe(0);
    expect(mock.stdout()).toContain('Mock stopped.');
    expect(await canConnect('127.0.0.1', port)).toBe(false);
  }, 180_000);

  test('rejects a port out of range', async () => {
    const run = boardkit(['mock', '--port', '0']);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toContain('expected a port number from 1 to 65535');
  });

  test('refuses a port that is already taken', async () => {
    const port = await freePort();
    const blocker = createServer();
    await new Promise<void>((listening) => blocker.listen(port, '127.0.0.1', listening));
    try {
      const run = boardkit(['mock', '--port', String(port)]);
      expect(await run.exit).toBe(2);
      expect(run.stderr()).toContain(`127.0.0.1:${port} is already in use`);
    } finally {
      blocker.close();
    }
  });
});

describe('boardkit proxy', () => {
  test('requires --upstream', async () => {
    const run = boardkit(['proxy']);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toContain("required option '--upstream <url>' not specified");
  });

  test('rejects an upstream that is not an http(s) URL', async () => {
    const run = boardkit(['proxy', '--upstream', 'localhost:8080']);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toContain('--upstream must be');
  });
});
