/**
 * The code habits of the project, checked with the rest of the suite: ESLint's type-aware rules
 * (eslint.config.js) and Prettier's layout (.prettierrc.json) over every source, test and script.
 * `npm run lint:code` and `npm run format` are the same tools for the developer's own loop.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { packageRoot } from '../src/contract/paths.js';

const run = promisify(execFile);

async function tool(script: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(packageRoot, script), ...args], {
      cwd: packageRoot,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 2, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

// Type-aware linting reads the whole program: a minute or more on two cores.
test('ESLint finds nothing', { timeout: 300_000 }, async () => {
  const eslint = await tool('node_modules/eslint/bin/eslint.js', ['.']);
  expect(eslint.output).toBe('');
  expect(eslint.code).toBe(0);
});

test('every file is laid out as Prettier lays it out', { timeout: 120_000 }, async () => {
  const prettier = await tool('node_modules/prettier/bin/prettier.cjs', ['--list-different', '.']);
  expect(prettier.output).toBe('');
  expect(prettier.code).toBe(0);
});
