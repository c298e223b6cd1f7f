/**
 * The `boardkit` command line as users run it: `node bin/boardkit.js …` on the built `lib/`
 * (`npm test` builds first).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artefactPaths, packageRoot } from '../../src/contract/paths.js';
import { runBoardkit, type Run } from '../support/boardkit.js';

function boardkit(...args: string[]): Promise<Run> {
  return runBoardkit(args);
}

const fixture = (name: string): string => join(packageRoot, 'test', 'fixtures', 'cli', name);

beforeAll(() => {
  if (!existsSync(join(packageRoot, 'lib', 'src', 'cli', 'index.js'))) {
    throw new Error('lib/ is missing: run `npm run build` (npm test does it first)');
  }
});

describe('boardkit', () => {
  test('--help lists the commands', async () => {
    const run = await boardkit('--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\s+lint\b/m);
    expect(run.stdout).toMatch(/^\s+bundle\b/m);
  });

  test('an unknown command is a usage error', async () => {
    const run = await boardkit('serve-all-the-things');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'serve-all-the-things'");
  });
});

describe('boardkit bundle', () => {
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'boardkit-cli-'));
  });

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  // The committed artefacts being fresh is test/contract/artefacts.test.ts; `--check` passing on fresh
  // ones, the test below and the installed package's `bundle` row.
  test('--check lists missing artefacts and writes nothing', async () => {
    const target = join(scratch, 'empty');
    const run = await boardkit('bundle', '--check', '--root', fixture('openapi.yaml'), '--out-dir', target);
    expect(run.code).toBe(1);
    for (const path of Object.values(artefactPaths)) {
      expect(run.stdout).toContain(`  ${path}\n`);
    }
    expect(existsSync(target)).toBe(false);
  });

  test('writes the artefacts, then --check passes until one changes', async () => {
    const target = join(scratch, 'written');
    const root = fixture('openapi.yaml');
    const written = await boardkit('bundle', '--root', root, '--out-dir', target);
    expect(written.code).toBe(0);
    expect((await readdir(join(target, 'openapi', 'dist'))).sort()).toEqual(['openapi.json', 'openapi.yaml']);

    expect((await boardkit('bundle', '--check', '--root', root, '--out-dir', target)).code).toBe(0);

    await writeFile(join(target, artefactPaths.generatedTypes), '// edited by hand\n');
    const stale = await boardkit('bundle', '--check', '--root', root, '--out-dir', target);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain(artefactPaths.generatedTypes);
    expect(stale.stdout).not.toContain(artefactPaths.bundledJson);
  });

  test('reports an unresolvable contract without a stack trace', async () => {
    const run = await boardkit('bundle', '--check', '--root', fixture('nope.yaml'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^boardkit: redocly bundle failed/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

// The contract linting clean is test/lint/contract.test.ts (the same lint, its findings listed) and the
// installed package's `lint` row (this command, from the packed kit).
describe('boardkit lint', () => {
  test('fails and names the rule on a broken contract', async () => {
    const run = await boardkit('lint', '--root', fixture('missing-summary.yaml'));
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('operation-summary');
  });

  // Spectral's own example rules are off (openapi/lint/ruleset.yaml): Redocly's check every example.
  test('fails on an example that does not match its schema', async () => {
    const run = await boardkit('lint', '--root', fixture('wrong-example.yaml'));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/redocly\/no-invalid-media-type-examples .*`status` property type must be string/);
  });
});
