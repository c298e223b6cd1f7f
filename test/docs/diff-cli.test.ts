/**
 * `boardkit diff` as users run it (`node bin/boardkit.js diff …` on the built `lib/`): each format on
 * copies of the bundled contract in a temporary folder, `--base` as a file and as a git revision of a
 * split source in a temporary repository, and the exit codes.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { packageRoot } from '../../src/contract/paths.js';
import {
  addOperation,
  bundledCopy,
  daysFromToday,
  deprecateMember,
  removeMember,
} from '../fixtures/contract-revisions.js';
import { runBoardkit, type Run } from '../support/boardkit.js';

interface JsonReport {
  passed: boolean;
  summary: Record<string, number>;
  changes: { rule: string; class: string; operation: string; verdict?: string }[];
  violations: { rule: string; message: string }[];
}

let scratch: string;
const file = (name: string): string => join(scratch, name);

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'boardkit-diff-review-'));
  await writeFile(file('base.yaml'), stringify(bundledCopy()));
  await writeFile(file('revision.json'), JSON.stringify(addOperation(removeMember(bundledCopy()))));
  await writeFile(file('removed.json'), JSON.stringify(removeMember(bundledCopy())));
  await writeFile(file('deprecated-lately.json'), JSON.stringify(deprecateMember(bundledCopy(), daysFromToday(-10))));
  await writeFile(file('deprecated-long-ago.json'), JSON.stringify(deprecateMember(bundledCopy(), '2000-01-01')));
  await writeFile(file('CHANGELOG.md'), '# Changelog\n\n## Unreleased\n\nNothing yet.\n');
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const diff = (base: string, revision: string, ...args: string[]): Promise<Run> =>
  runBoardkit([
    'diff',
    '--base',
    file(base),
    '--revision',
    file(revision),
    '--changelog',
    file('CHANGELOG.md'),
    ...args,
  ]);

describe('boardkit diff --format', () => {
  test('json lists the removed property and the added operation with their classes, and exits 1', async () => {
    const run = await diff('base.yaml', 'revision.json', '--format', 'json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.passed).toBe(false);
    expect(report.changes).toContainEqual(
      expect.objectContaining({
        rule: 'property-removed',
        class: 'breaking',
        operation: 'GET /v1/sessions/{id}',
        verdict: 'undeclared',
      }),
    );
    expect(report.changes).toContainEqual(
      expect.objectContaining({ rule: 'operation-added', class: 'additive', operation: 'POST /v1/sessions/{id}/pin' }),
    );
    expect(report.summary).toMatchObject({ additive: 1, deprecated: 0, 'non-breaking': 0, violations: 0 });
    expect(report.summary['undeclared']).toBe(report.summary['breaking']);
  });

  test('text lists each class and the line that would declare the breaking change', async () => {
    const run = await diff('base.yaml', 'revision.json');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Additive (1):\n  operation-added  POST /v1/sessions/{id}/pin  operation\n');
    expect(run.stdout).toContain(
      '  property-removed  GET /v1/sessions/{id}  response 200 application/json $.forked_from\n',
    );
    expect(run.stdout).toContain('- `property-removed` `Session`: <what changed, why, and what clients must do>');
  });

  test('markdown is a pull-request comment: its marker, the verdict and a table per class', async () => {
    const run = await diff('base.yaml', 'revision.json', '--format', 'markdown');
    expect(run.code).toBe(1);
    expect(run.stdout.startsWith('<!-- boardkit diff -->\n## Contract changes\n\n**Fails**: ')).toBe(true);
    expect(run.stdout).toContain('\n### Additive (1)\n');
    expect(run.stdout).toContain(
      '| `operation-added` | `POST /v1/sessions/{id}/pin` | `operation` | a new operation or webhook |',
    );
    expect(run.stdout).toMatch(/\| `property-removed` \| `GET \/v1\/sessions\/\{id\}` \| .* \| \*\*undeclared\*\*: /);
  });

  test('github writes one workflow command per change: errors for what fails, notices for additions', async () => {
    const run = await diff('base.yaml', 'revision.json', '--format', 'github');
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toContain(
      '::notice title=operation-added%3A POST /v1/sessions/{id}/pin::operation: a new operation or webhook',
    );
    expect(
      lines.filter((line) => line.startsWith('::error title=property-removed%3A GET /v1/sessions/{id}::')),
    ).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/^Changes from .*base\.yaml to .*revision\.json: \d+ breaking/);
  });
});

describe('boardkit diff exit codes and the deprecation policy', () => {
  test('0 when nothing breaks', async () => {
    const run = await diff('base.yaml', 'base.yaml');
    expect(run.stdout).toContain('0 breaking (0 undeclared), 0 deprecated, 0 additive, 0 non-breaking');
    expect(run.code).toBe(0);
  });

  test('1 for a removal before the deprecation period, 0 once it has passed', async () => {
    const early = await diff('deprecated-lately.json', 'removed.json', '--format', 'json');
    expect(early.code).toBe(1);
    const report = JSON.parse(early.stdout) as JsonReport;
    expect(report.violations[0]).toMatchObject({ rule: 'removed-before-deprecation-period' });
    expect(report.violations[0]?.message).toMatch(/lets it be removed from \d{4}-\d{2}-\d{2}$/);

    const late = await diff('deprecated-long-ago.json', 'removed.json');
    expect(late.stdout).toContain('Removals allowed by the deprecation policy');
    expect(late.code).toBe(0);
  });

  test('2 when a side cannot be read, or for an unknown format', async () => {
    const missing = await runBoardkit(['diff', '--base', 'no-such-revision']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^boardkit: no-such-revision is neither a contract file nor a git revision/);
    const format = await diff('base.yaml', 'base.yaml', '--format', 'xml');
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("argument 'xml' is invalid");
  });
});

describe('boardkit diff --base <git revision>', () => {
  let repository: string;

  beforeAll(async () => {
    repository = await mkdtemp(join(tmpdir(), 'boardkit-diff-git-'));
    await cp(join(packageRoot, 'openapi'), join(repository, 'openapi'), { recursive: true });
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
        cwd: repository,
        encoding: 'utf8',
      });
    git('init', '--quiet');
    git('add', 'openapi');
    git('commit', '--quiet', '-m', 'The contract as released');
    const session = join(repository, 'openapi', 'components', 'schemas', 'Session.yaml');
    const source = parseDocument(await readFile(session, 'utf8'));
    source.deleteIn(['properties', 'forked_from']);
    await writeFile(session, source.toString());
  });

  afterAll(async () => {
    await rm(repository, { recursive: true, force: true });
  });

  test('compares the split source now with the one committed, and annotates the source file', async () => {
    const run = await runBoardkit(
      ['diff', '--root', 'openapi/openapi.yaml', '--base', 'HEAD', '--format', 'github'],
      {},
      undefined,
      repository,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const session = await readFile(join(repository, 'openapi', 'components', 'schemas', 'Session.yaml'), 'utf8');
    const propertiesLine = session.split('\n').findIndex((line) => line.startsWith('properties:')) + 1;
    expect(run.stdout).toContain(
      `::error file=openapi/components/schemas/Session.yaml,line=${propertiesLine},title=property-removed%3A GET /v1/sessions/{id}::`,
    );
    expect(run.stdout).toMatch(
      /Changes from HEAD \(git\) to openapi\/openapi\.yaml: \d+ breaking \(\d+ undeclared\), 0 deprecated, 0 additive/,
    );
  }, 180_000);
});
