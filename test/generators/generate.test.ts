/**
 * The contract in the tools other teams use (docs/other-languages.md): openapi-python-client, orval and
 * @hey-api/openapi-ts each generate a complete client from the bundled contract (every operation, no
 * schema skipped, no warning), the TypeScript outputs compile under `tsc --strict` without
 * `skipLibCheck`, and @apidevtools/swagger-parser and openapi-spec-validator validate it. Each generator
 * runs once, into a temporary directory, with the commands the guide shows.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { contractFile as contract, operationCount, pythonGenerate, venvBin } from './python-client.js';

const run = promisify(execFile);
const bin = (name: string) => join(packageRoot, 'node_modules', '.bin', name);

let dir: string;
const output: Record<string, string> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boardkit-generators-'));
  await writeFile(
    join(dir, 'orval.config.cjs'),
    `module.exports = { board: { input: { target: ${JSON.stringify(contract)} }, ` +
      `output: { target: './orval/client.ts', client: 'fetch', mode: 'single' } } };\n`,
  );
  const [python, orval, heyApi] = await Promise.all([
    pythonGenerate(contract, join(dir, 'python')),
    run(bin('orval'), ['--config', 'orval.config.cjs'], { cwd: dir }),
    run(bin('openapi-ts'), ['-i', contract, '-o', 'hey-api'], { cwd: dir }),
  ]);
  output['python'] = python;
  output['orval'] = orval.stdout + orval.stderr;
  output['hey-api'] = heyApi.stdout + heyApi.stderr;
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('client generators', () => {
  test('openapi-python-client: one module per operation, nothing skipped, no warning', async () => {
    expect(operationCount).toBe(46);
    expect(output['python']).not.toMatch(/Warning|Unable to process|Skipping/);
    const groups = await readdir(join(dir, 'python', 'api'));
    const modules = (
      await Promise.all(groups.filter((g) => !g.includes('.')).map((g) => readdir(join(dir, 'python', 'api', g))))
    )
      .flat()
      .filter((file) => file.endsWith('.py') && file !== '__init__.py');
    expect(modules).toHaveLength(operationCount);
  });

  test('orval and @hey-api/openapi-ts: one function per operation', async () => {
    expect(output['orval']).not.toMatch(/error|warn/i);
    expect(output['hey-api']).not.toMatch(/error|warn/i);
    const orval = await readFile(join(dir, 'orval', 'client.ts'), 'utf8');
    const heyApi = await readFile(join(dir, 'hey-api', 'sdk.gen.ts'), 'utf8');
    expect(orval.match(/^export const \w+ = async/gm)).toHaveLength(operationCount);
    expect(heyApi.match(/^export const \w+ = </gm)).toHaveLength(operationCount);
  });

  test('the TypeScript clients compile under tsc --strict, without skipLibCheck', async () => {
    const compilerOptions = {
      strict: true,
      noEmit: true,
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      types: [],
    };
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions, include: ['orval/**/*.ts', 'hey-api/**/*.ts'] }),
    );
    await expect(run(bin('tsc'), ['-p', dir])).resolves.toBeDefined();
  }, 120_000);

  test('@apidevtools/swagger-parser and openapi-spec-validator validate the contract', async () => {
    const api = await SwaggerParser.validate(contract);
    expect(Object.keys(api.paths ?? {}).length).toBeGreaterThan(0);
    const { stdout } = await run(venvBin('openapi-spec-validator'), [contract]);
    expect(stdout).toContain(': OK');
  });
});
