/**
 * docs/testing.md's examples run as written, each with its own test runner, in a project of their own
 * that imports `boardkit` by its name: the jest one here; the vitest one runs under the vitest of a
 * project that installed the packed kit (test/package/installed.test.ts, the `library` row).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';

let project: string;

/** The page's fenced blocks of one info string, in order. */
async function examples(info: string): Promise<string[]> {
  const page = await readFile(join(packageRoot, 'docs', 'testing.md'), 'utf8');
  return [...page.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)]
    .filter((match) => match[1]?.trim() === info)
    .map((match) => match[2] ?? '');
}

/** Runs a test runner in the project; resolves with its exit code and output, killed at the deadline. */
function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: project, env: { ...process.env, ...env, CI: 'true' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 400_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'boardkit-testing-docs-'));
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'uses-boardkit', type: 'module' }));
  // The project sees boardkit under its name, and the runners the page uses, as an installed project would.
  for (const name of ['boardkit', '@jest/globals']) {
    const link = join(project, 'node_modules', name);
    await mkdir(dirname(link), { recursive: true });
    await symlink(name === 'boardkit' ? packageRoot : join(packageRoot, 'node_modules', name), link, 'dir');
  }
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

test('the jest example passes under jest', { timeout: 420_000 }, async () => {
  const [example] = await examples('js');
  expect(example).toContain("from 'boardkit'");
  await writeFile(join(project, 'receiver.test.js'), example!);
  // ES modules as they are: no transform, Node's VM modules (the page says so).
  await writeFile(join(project, 'jest.config.json'), JSON.stringify({ transform: {}, testEnvironment: 'node' }));
  const jest = join(packageRoot, 'node_modules', 'jest', 'bin', 'jest.js');
  const { code, output } = await run([jest, '--ci', 'receiver.test.js'], {
    NODE_OPTIONS: '--experimental-vm-modules',
  });
  expect(output).toMatch(/Tests:\s+2 passed/);
  expect(code).toBe(0);
});
