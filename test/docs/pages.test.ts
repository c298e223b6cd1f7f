/**
 * The pages generated from the contract (docs/variant-map.md, docs/provenance.md, docs/errors.md): each is
 * fresh, and each says what the contract says, checked against the contract by other means than the
 * generators use.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { constantOf } from '../../src/contract/constant.js';
import { loadContract } from '../../src/contract/load.js';
import { listOperations } from '../../src/contract/operations.js';
import { packageRoot } from '../../src/contract/paths.js';
import { resolve, valueAt } from '../../src/contract/pointer.js';
import { problemTypes } from '../../src/contract/problem-types.js';
import { renderErrors } from '../../src/docs/errors.js';
import { operationLabel } from '../../src/docs/labels.js';
import { generatedPagePaths, renderPages } from '../../src/docs/pages.js';
import { provenanceMarks } from '../../src/docs/provenance-marks.js';
import { renderProvenance } from '../../src/docs/provenance.js';
import { collectVariantEncodings, renderVariantMap } from '../../src/docs/variant-map.js';

const contract = loadContract();

/** Every `x-provenance` in the document, found by a plain walk over the JSON text's object. */
function everyMark(node: unknown, pointer = '#', found: Array<[string, string]> = []): Array<[string, string]> {
  if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-provenance') {
        found.push([pointer, String(value)]);
      } else {
        everyMark(value, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, found);
      }
    }
  }
  return found;
}

const marks = everyMark(contract);

/** The section of a Markdown page under the heading `heading`, up to the next heading of its level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  expect(start, `no heading ${heading}`).toBeGreaterThan(-1);
  const level = heading.split(' ')[0] ?? '';
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n${level} `));
  return end === -1 ? rest : rest.slice(0, end);
}

describe('generated pages', () => {
  const pages = renderPages(contract);

  test.each([...generatedPagePaths])('%s is fresh (run `npm run docs`)', async (path) => {
    const fresh = pages.find((page) => page.path === path);
    expect(await readFile(join(packageRoot, path), 'utf8')).toBe(fresh?.content);
  });
});

describe('variant map', () => {
  const page = renderVariantMap(contract);
  const encodings = collectVariantEncodings(contract);

  test('accounts for every part marked variant', () => {
    const covered = new Set(encodings.flatMap((encoding) => encoding.covers));
    const variants = marks.filter(([, value]) => value === 'variant').map(([pointer]) => pointer);
    expect(variants.length).toBeGreaterThan(0);
    expect(variants.filter((pointer) => !covered.has(pointer))).toEqual([]);
    expect(encodings.filter((encoding) => encoding.kind === 'other')).toEqual([]);
  });

  test('gives each start response variant its own example', () => {
    const table = section(page, '### `StartSessionResponse`');
    for (const [branch, example] of [
      ['A1', 'variant_a1'],
      ['A2', 'variant_a2'],
      ['B', 'variant_b'],
    ]) {
      const row = table.split('\n').find((line) => line.startsWith(`| \`StartSessionResponse${branch}\``));
      expect(row).toContain(`\`${example}\``);
    }
  });

  test('the event-list matrix agrees with the four published lists', () => {
    const matrix = section(page, '### `WebhookEventList`');
    const lists = [1, 2, 3, 4].map(
      (n) => constantOf(valueAt(contract, `#/components/schemas/WebhookEventListVariant${n}`))?.value as string[],
    );
    const names = new Set(lists.flat());
    expect(names.size).toBeGreaterThan(0);
    for (const name of names) {
      const cells = matrix
        .split('\n')
        .find((line) => line.startsWith(`| \`${name}\` |`))
        ?.split('|')
        .slice(2, 6)
        .map((cell) => cell.trim());
      expect(cells, name).toEqual(lists.map((list) => (list.includes(name) ? 'yes' : '')));
    }
  });

  test('lists both published deprecation notices', () => {
    const notices = valueAt(contract, '#/x-deprecation-policy/notice') as Array<{ text: string }>;
    for (const { text } of notices) {
      expect(section(page, '### `x-deprecation-policy.notice`')).toContain(text);
    }
  });

  test('names the alias of every aliased operation', () => {
    const aliases = listOperations(contract).filter(
      (entry) => (entry.operation as Record<string, unknown>)['x-alias-of'] !== undefined,
    );
    const table = section(page, '### Paths published in two forms');
    expect(aliases.filter((entry) => !table.includes(`| \`${operationLabel(entry)}\` |`))).toEqual([]);
  });
});

describe('provenance report', () => {
  const page = renderProvenance(contract);

  test('finds every mark of the document', () => {
    expect(provenanceMarks(contract).map((mark) => [mark.pointer, mark.provenance])).toEqual(marks);
  });

  test('totals the marks of each provenance', () => {
    const totals = page.split('\n').find((line) => line.startsWith('| **all parts** |'));
    const count = (value: string): number => marks.filter(([, provenance]) => provenance === value).length;
    expect(totals).toBe(
      `| **all parts** | **${count('stated')}** | **${count('variant')}** | **${count('designed')}** | **${marks.length}** |`,
    );
    expect(page).not.toContain('## Unknown values');
  });

  test('lists each operation under its provenance', () => {
    for (const entry of listOperations(contract)) {
      const provenance = String((entry.operation as Record<string, unknown>)['x-provenance']);
      const heading = `## ${provenance[0]?.toUpperCase() ?? ''}${provenance.slice(1)}`;
      expect(section(page, heading)).toContain(`\`${operationLabel(entry)}\``);
    }
  });
});

describe('error catalog', () => {
  const page = renderErrors(contract);
  const operations = listOperations(contract).filter((entry) => entry.source === 'paths');

  test.each(problemTypes(contract).types.map((type) => [type.slug, type] as const))('documents %s', (slug, type) => {
    const text = section(page, `### ${type.status} \`${slug}\``);
    expect(text).toContain(type.condition);
    const example = /```json\n([\s\S]*?)\n```/.exec(text)?.[1];
    if (example !== undefined) {
      const body = JSON.parse(example) as { status: number; type: string };
      expect(body.status).toBe(type.status);
      expect(body.type.endsWith(`/${slug}`)).toBe(true);
    }
    // Operations declaring the status with a problem of this slug, found by status code.
    const answering = operations.filter((entry) => {
      const response = entry.operation.responses?.[String(type.status)];
      return (
        response !== undefined &&
        resolve<Record<string, unknown>>(contract, `${entry.pointer}/responses/${type.status}`).node[
          'x-problem-slug'
        ] === slug
      );
    });
    if (answering.length === 0) {
      expect(text).toContain('no operation declares it');
    } else if (answering.length === operations.length) {
      expect(text).toContain(`every operation (${operations.length})`);
    } else if (answering.length <= operations.length / 2) {
      expect(answering.filter((entry) => !text.includes(`\`${operationLabel(entry)}\``))).toEqual([]);
    } else {
      const others = operations.filter((entry) => !answering.includes(entry));
      expect(others.filter((entry) => !text.includes(`\`${operationLabel(entry)}\``))).toEqual([]);
    }
  });
});
