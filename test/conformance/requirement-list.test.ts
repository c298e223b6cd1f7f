/**
 * docs/conformance-requirements.md, the requirement list generated from the registry: it is fresh, and it
 * holds every requirement once, under its category, with its level, checks and what it covers.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { coverageMap } from '../../conformance/requirements/coverage.js';
import { requirements } from '../../conformance/requirements/index.js';
import { renderRequirementList, requirementListPath } from '../../conformance/requirement-list.js';
import { packageRoot } from '../../src/contract/paths.js';

const page = renderRequirementList();

test('the committed page is fresh (run `npm run docs`)', async () => {
  expect(await readFile(join(packageRoot, requirementListPath), 'utf8')).toBe(page);
});

test('holds every requirement of the registry once, in a row of its category, with its level and checks', () => {
  const rows = page.split('\n').filter((line) => /^\| [A-Z]+-\d{3} \|/.test(line));
  expect(rows.map((line) => line.split(' | ')[0]!.slice(2))).toEqual(requirements.map((requirement) => requirement.id));
  for (const requirement of requirements) {
    const row = rows.find((line) => line.startsWith(`| ${requirement.id} |`))!;
    expect(row).toContain(` ${requirement.level} `);
    requirement.checks.forEach((name) => expect(row).toContain(`\`${name}\``));
    const section = page.slice(0, page.indexOf(row));
    expect(section.lastIndexOf('\n## ')).toBe(section.lastIndexOf(`\n## ${requirement.category}\n`));
  }
});

test('names what each requirement covers of the contract', () => {
  const row = page.split('\n').find((line) => line.startsWith('| LIFE-013 |'))!;
  expect(coverageMap.operations['updateSession']).toContain('LIFE-013');
  expect(row).toContain('operation `updateSession`');
});
