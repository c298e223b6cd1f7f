/**
 * `boardkit docs --check` and `boardkit diff` as users run them: `node bin/boardkit.js …` on the built
 * `lib/` (`npm test` builds first), on the repository and on small documents in a temporary folder.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { editable, releasedContract } from '../fixtures/release-contract.js';
import { runBoardkit, type Run } from '../support/boardkit.js';

function boardkit(...args: string[]): Promise<Run> {
  return runBoardkit(args);
}

describe('boardkit docs --check', () => {
  test('passes on the committed pages', async () => {
    const run = await boardkit('docs', '--check');
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('All 4 generated pages are fresh.\n');
    expect(run.code).toBe(0);
  });
});

describe("--root: a designer's own copy of the contract", () => {
  let copy: string;
  const root = (): string => join(copy, 'openapi', 'openapi.yaml');

  beforeAll(async () => {
    copy = await mkdtemp(join(tmpdir(), 'boardkit-copy-'));
    await cp(join(packageRoot, 'openapi'), join(copy, 'openapi'), { recursive: true });
  });

  afterAll(async () => {
    await rm(copy, { recursive: true, force: true });
  });

  test('docs --root --out writes the reference and the pages of the copy, all into --out', async () => {
    const out = join(copy, 'apidocs');
    const run = await boardkit('docs', '--root', root(), '--out', out);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['errors.md', 'index.html', 'provenance.md', 'variant-map.md']);
    // The copy is the contract itself, so its pages are the committed ones.
    for (const page of ['errors.md', 'provenance.md', 'variant-map.md']) {
      expect(await readFile(join(out, page), 'utf8')).toBe(await readFile(join(packageRoot, 'docs', page), 'utf8'));
    }
  });

  test('diff --root checks the copy against the released copy and changelog beside its root file', async () => {
    const passing = await boardkit('diff', '--root', root());
    expect(passing.stdout).toContain(
      `No undeclared breaking change against ${join(copy, 'openapi', 'released', 'v1.json')}.`,
    );
    expect(passing.code).toBe(0);

    const released = join(copy, 'openapi', 'released', 'v1.json');
    const document = JSON.parse(await readFile(released, 'utf8')) as { paths: Record<string, unknown> };
    document.paths['/v1/retired'] = {
      get: { operationId: 'getRetired', responses: { '200': { description: 'Gone now.' } } },
    };
    await writeFile(released, JSON.stringify(document));
    const failing = await boardkit('diff', '--root', root());
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('GET /v1/retired');
    expect(failing.stdout).toContain(`"## Unreleased" in ${join(copy, 'openapi', 'CHANGELOG.md')}:`);
  });
});

describe('boardkit diff', () => {
  let scratch: string;
  const files = { base: '', head: '', changelog: '' };

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'boardkit-diff-'));
    Object.assign(files, {
      base: join(scratch, 'v1.json'),
      head: join(scratch, 'now.json'),
      changelog: join(scratch, 'CHANGELOG.md'),
    });
    const head = releasedContract();
    delete editable(head)['components']['schemas']['Thing']['properties']['size'];
    await writeFile(files.base, JSON.stringify(releasedContract()));
    await writeFile(files.head, JSON.stringify(head));
  });

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  const diff = (): Promise<Run> =>
    boardkit('diff', '--base', files.base, '--head', files.head, '--changelog', files.changelog);

  test('passes on the repository: no undeclared breaking change against the released copy', async () => {
    const run = await boardkit('diff');
    expect(run.stdout).toContain('No undeclared breaking change against openapi/released/v1.json.');
    expect(run.code).toBe(0);
  });

  test('fails on an undeclared breaking change and prints the line that would declare it', async () => {
    await writeFile(files.changelog, '# Changelog\n\n## Unreleased\n\nNothing yet.\n');
    const run = await diff();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('property-removed  GET /v1/things/{id}  response 200 application/json $.size');
    expect(run.stdout).toContain('- `property-removed` `Thing`: <what changed, why, and what clients must do>');
  });

  test('passes once the change is declared under Unreleased', async () => {
    await writeFile(
      files.changelog,
      '# Changelog\n\n## Unreleased\n\n- `property-removed` `Thing`: `size` moved to `dimensions`.\n',
    );
    const run = await diff();
    expect(run.stdout).toContain('Declared breaking changes (2):');
    expect(run.code).toBe(0);
  });

  test('a missing released copy is an error message, not a stack trace', async () => {
    const run = await boardkit('diff', '--base', join(scratch, 'absent.json'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^boardkit: no contract at .*absent\.json/);
    expect(run.stderr).not.toContain('    at ');
  });
});
