/**
 * Output piped into a reader that stops early (`boardkit diff --format json | head -c 100`): the command
 * ends quietly, with no EPIPE stack trace on stderr.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';

test('a reader that closes the pipe early gets no stack trace', { timeout: 120_000 }, async () => {
  const child = spawn(process.execPath, [join(packageRoot, 'bin', 'boardkit.js'), 'diff', '--format', 'json'], {
    cwd: packageRoot,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // The reader takes the first chunk and goes away, as `head` does.
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(stderr).not.toMatch(/EPIPE|Error/);
  expect(code).toBe(0);
});
