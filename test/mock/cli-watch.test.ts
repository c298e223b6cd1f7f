/**
 * `boardkit mock --watch` from the command line (`node bin/boardkit.js` on the built `lib/`), on a
 * temporary copy of the contract source: it serves the source as it is, serves an edit on the same port
 * once the change is bundled and linted, and stops on Ctrl-C. Each step waits for the line the command
 * prints, never for a fixed time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { canConnect, freePort } from '../../src/mock/prism.js';
import { bearer } from './requests.js';
import { copyContractSource } from '../support/contract-copy.js';

let folder: string;
let child: ChildProcess | undefined;
let stdout = '';

beforeAll(async () => {
  folder = await copyContractSource('boardkit-mock-watch-');
});

afterAll(async () => {
  if (child?.exitCode === null) {
    child.kill('SIGKILL');
  }
  await rm(folder, { recursive: true, force: true });
});

/** Resolves once stdout holds `text`; rejects if the command ends first. */
function printed(text: string): Promise<void> {
  return new Promise((done, fail) => {
    const check = (): void => {
      if (stdout.includes(text)) {
        child?.stdout?.off('data', check);
        done();
      }
    };
    child?.stdout?.on('data', check);
    child?.once('exit', () => fail(new Error(`exited before printing "${text}":\n${stdout}`)));
    check();
  });
}

describe('boardkit mock --watch', () => {
  test('serves the edited source on the same port and stops on Ctrl-C', async () => {
    const port = await freePort();
    const root = join(folder, 'openapi', 'openapi.yaml');
    const bin = join(packageRoot, 'bin', 'boardkit.js');
    child = spawn(process.execPath, [bin, 'mock', '--watch', '--root', root, '--port', String(port)], {
      cwd: packageRoot,
      detached: true,
    });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.resume();
    const exit = new Promise<number | null>((done) => child?.once('exit', (code) => done(code)));
    const title = async (): Promise<string> => {
      const response = await fetch(`http://127.0.0.1:${port}/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E`, {
        headers: { Authorization: bearer },
      });
      return ((await response.json()) as { title: string }).title;
    };

    await printed('Watching');
    expect(await title()).toBe('EU launch of the Pro plan');
    const example = join(folder, 'openapi', 'components', 'examples', 'SessionRunning.yaml');
    const original = await readFile(example, 'utf8');
    await writeFile(example, original.replace('title: EU launch of the Pro plan', 'title: EU launch, edited'));
    await printed('Mock reloaded');
    expect(await title()).toBe('EU launch, edited');

    process.kill(-child.pid!, 'SIGINT');
    expect(await exit).toBe(0);
    expect(stdout).toContain('Mock stopped.');
    expect(await canConnect('127.0.0.1', port)).toBe(false);
  }, 300_000);
});
