/**
 * One exit-code rule for every command (src/cli/exit-codes.ts, README "Exit codes"): 0 ok, 1 the thing
 * tested failed, 2 could not run. Usage errors of every command and subcommand, a busy port, an
 * unreadable file and a refused option value are all 2, each with a plain message and no stack; hints
 * name the command with the user's own options; one rule for a webhook signing secret.
 */
import { createServer, type Server } from 'node:net';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { signDelivery } from '../../src/webhooks/signing.js';
import { runBoardkit, type Run } from '../support/boardkit.js';

const boardkit = (...args: string[]): Promise<Run> => runBoardkit(args);

function expectCouldNotRun(run: Run, message: RegExp): void {
  expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 2, stderr: expect.stringMatching(message) });
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

/** Every command and subcommand `--help` lists, as argument lists (`['webhooks', 'trigger']`). */
async function listedCommands(prefix: string[] = []): Promise<string[][]> {
  const help = await boardkit(...prefix, '--help');
  const section = help.stdout.split(/^Commands:$/m)[1] ?? '';
  const names = [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)]
    .map((match) => match[1] ?? '')
    .filter((name) => name !== 'help');
  const nested = await Promise.all(names.map((name) => listedCommands([...prefix, name])));
  return names.flatMap((name, index) => [[...prefix, name], ...(nested[index] ?? [])]);
}

describe('usage errors exit 2', () => {
  test('a mistyped flag, for every command and subcommand', async () => {
    const commands = await listedCommands();
    expect(commands).toContainEqual(['webhooks', 'verify']);
    const runs = await Promise.all(
      commands.map(async (command) => ({
        command: command.join(' '),
        run: await boardkit(...command, '--no-such-flag'),
      })),
    );
    for (const { command, run } of runs) {
      expect({ command, code: run.code }).toEqual({ command, code: 2 });
      expect(run.stderr).toMatch(/^error: (unknown option '--no-such-flag'|required option)/);
    }
  });

  test('an unknown command, no command, and a bad option value', async () => {
    expectCouldNotRun(await boardkit('serve-all-the-things'), /unknown command 'serve-all-the-things'/);
    expect((await boardkit()).code).toBe(2);
    expectCouldNotRun(await boardkit('mock', '--port', 'eighty'), /expected a port number/);
  });

  test('help and version exit 0', async () => {
    expect((await boardkit('--help')).code).toBe(0);
    expect((await boardkit('lint', '--help')).code).toBe(0);
    expect((await boardkit('--version')).code).toBe(0);
  });
});

describe('could not run: plain messages, exit 2', () => {
  let busy: Server;
  let port = 0;

  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((listening) => busy.listen(0, '127.0.0.1', listening));
    port = (busy.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise((closed) => busy.close(closed));
  });

  test('serve and mock on a busy port', async () => {
    const [serve, mock] = await Promise.all([
      boardkit('serve', '--db', ':memory:', '--port', String(port)),
      boardkit('mock', '--port', String(port)),
    ]);
    expectCouldNotRun(serve, new RegExp(`^boardkit: 127\\.0\\.0\\.1:${port} is already in use; choose another port`));
    expectCouldNotRun(mock, new RegExp(`127\\.0\\.0\\.1:${port} is already in use; choose another port`));
  });

  test('an unreadable file', async () => {
    expectCouldNotRun(
      await boardkit('diff', '--base', join(packageRoot, 'no-such-release.json')),
      /^boardkit: no contract at .*no-such-release\.json/,
    );
    expectCouldNotRun(await boardkit('bundle', '--check', '--root', 'no-such-contract.yaml'), /^boardkit: /);
  });

  test('a refused key', async () => {
    expectCouldNotRun(
      await boardkit('serve', '--db', ':memory:', '--port', '0', '--api-key', 'not-a-key'),
      /is not an API key/,
    );
  });
});

describe('hints carry the options the user gave', () => {
  let project: string;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'boardkit-hints-'));
    await cp(join(packageRoot, 'openapi'), join(project, 'openapi'), {
      recursive: true,
      filter: (source) => !source.includes(join('openapi', 'dist')),
    });
  });

  afterAll(async () => {
    await rm(project, { recursive: true, force: true });
  });

  test('bundle --check --root FILE names bundle --root FILE', async () => {
    const run = await runBoardkit(['bundle', '--check', '--root', 'openapi/openapi.yaml'], {}, undefined, project);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('(run `boardkit bundle --root openapi/openapi.yaml` and commit them)');
  });

  test("bundle without --root refuses to overwrite the artefacts of the project's own contract", async () => {
    const run = await runBoardkit(['bundle'], {}, undefined, project);
    expectCouldNotRun(run, /Run `boardkit bundle --root openapi\/openapi\.yaml` to bundle yours/);
    expect(run.stdout).toBe('');
  });
});

describe('one rule for a webhook signing secret', () => {
  const body = '{"event":"session.complete"}';
  const verify = (secret: string, timestamp: string, signature: string): Promise<Run> =>
    runBoardkit(
      ['webhooks', 'verify', '--secret', secret, '--timestamp', timestamp, '--signature', signature],
      {},
      body,
    );

  test('underscores and other punctuation pass everywhere; a space or a slip of a few characters does not', async () => {
    const secret = 'whsec_with_under_scores_0001';
    const timestamp = String(Math.floor(Date.now() / 1000));
    expect((await verify(secret, timestamp, signDelivery({ secret, timestamp, rawBody: body }))).code).toBe(0);
    expectCouldNotRun(
      await verify('whsec x', timestamp, 'sha256=00'),
      /--secret: a webhook signing secret is 8 to 256 visible ASCII characters/,
    );
    const trigger = await boardkit(
      'webhooks',
      'trigger',
      'session.complete',
      '--url',
      'http://127.0.0.1:9/hooks',
      '--secret',
      'short',
    );
    expectCouldNotRun(trigger, /--secret: a webhook signing secret is 8 to 256/);
    const serve = await boardkit(
      'serve',
      '--db',
      ':memory:',
      '--port',
      '0',
      '--forward-webhooks',
      'http://127.0.0.1:9/hooks',
      '--forward-secret',
      'short',
    );
    expectCouldNotRun(serve, /--forward-secret: a webhook signing secret is 8 to 256/);
  });
});
