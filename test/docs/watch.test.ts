/**
 * `boardkit docs --watch` as a designer runs it (`node bin/boardkit.js` on the built `lib/`), on a
 * temporary copy of the contract source: the reference is built at start and again after an edit, a
 * change with lint errors is reported with its findings and leaves the last good page in place, and
 * Ctrl-C stops it. Each step waits for the line the command prints, never for a fixed time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { copyContractSource } from '../support/contract-copy.js';

let folder: string;
let child: ChildProcess | undefined;
let stdout = '';

beforeAll(async () => {
  folder = await copyContractSource('boardkit-docs-watch-');
});

afterAll(async () => {
  if (child?.exitCode === null) {
    child.kill('SIGKILL');
  }
  await rm(folder, { recursive: true, force: true });
});

/** Resolves once stdout holds `text` `count` times; rejects if the command ends first. */
function printed(text: string, count = 1): Promise<void> {
  return new Promise((done, fail) => {
    const check = (): void => {
      if (stdout.split(text).length - 1 >= count) {
        child?.stdout?.off('data', check);
        done();
      }
    };
    child?.stdout?.on('data', check);
    child?.once('exit', () => fail(new Error(`exited before printing "${text}" ${count} times:\n${stdout}`)));
    check();
  });
}

describe('boardkit docs --watch', () => {
  test('rebuilds the reference on an edit, holds back a change with lint errors, stops on Ctrl-C', async () => {
    const root = join(folder, 'openapi', 'openapi.yaml');
    const site = join(folder, 'site');
    const page = join(site, 'index.html');
    // Printed relative to the folder the command runs in, as every command prints what it wrote.
    const printedPage = relative(packageRoot, page);
    child = spawn(
      process.execPath,
      [join(packageRoot, 'bin', 'boardkit.js'), 'docs', '--watch', '--root', root, '--out', site],
      {
        cwd: packageRoot,
        detached: true,
      },
    );
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.resume();
    const exit = new Promise<number | null>((done) => child?.once('exit', (code) => done(code)));

    await printed('Watching');
    expect(stdout).toContain(`Wrote ${printedPage}`);
    expect(await readFile(page, 'utf8')).toContain('EU launch of the Pro plan');

    const example = join(folder, 'openapi', 'components', 'examples', 'SessionRunning.yaml');
    const original = await readFile(example, 'utf8');
    await writeFile(example, original.replace('title: EU launch of the Pro plan', 'title: EU launch, edited'));
    await printed(`Wrote ${printedPage}`, 2);
    expect(await readFile(page, 'utf8')).toContain('EU launch, edited');

    // A second operation named getHealth: it bundles, but both linters call it an error.
    const sessions = join(folder, 'openapi', 'paths', 'v1_sessions.yaml');
    const text = await readFile(sessions, 'utf8');
    await writeFile(sessions, text.replace('operationId: startSession', 'operationId: getHealth'));
    await printed('has lint errors; keeping the last good version');
    expect(stdout).toMatch(/operation-operationId-unique/);
    expect(await readFile(page, 'utf8')).toContain('EU launch, edited');

    process.kill(-child.pid!, 'SIGINT');
    expect(await exit).toBe(0);
    expect(stdout).toContain('Stopped watching.');
  }, 300_000);
});
