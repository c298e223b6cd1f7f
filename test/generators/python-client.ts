/**
 * openapi-python-client from the project's .venv (scripts/setup.sh installs the pinned version), run as
 * docs/other-languages.md shows.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../../src/contract/paths.js';

const run = promisify(execFile);

export const venvBin = (name: string): string => join(packageRoot, '.venv', 'bin', name);

export const contractFile = join(packageRoot, 'openapi', 'dist', 'openapi.json');

/** The contract's path operations (webhooks are not client calls): 46. */
export const operationCount = Object.values(
  JSON.parse(readFileSync(contractFile, 'utf8')).paths as Record<string, Record<string, unknown>>,
).flatMap((item) => ['get', 'put', 'post', 'delete', 'patch'].filter((method) => method in item)).length;

/** Generates the client package into `outputPath` (its post-hooks run ruff from the .venv); resolves with the log. */
export async function pythonGenerate(contract: string, outputPath: string): Promise<string> {
  const { stdout, stderr } = await run(
    venvBin('openapi-python-client'),
    ['generate', '--path', contract, '--output-path', outputPath, '--meta', 'none'],
    { env: { ...process.env, PATH: `${join(packageRoot, '.venv', 'bin')}:${process.env['PATH'] ?? ''}` } },
  );
  return stdout + stderr;
}
