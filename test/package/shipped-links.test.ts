/**
 * The pages the package ships link only to what it ships: every relative link of every Markdown file in
 * the tarball (README.md, docs/, openapi/, mocks/) resolves to a file or folder inside it, as a user
 * reads them in node_modules/boardkit or on the registry's page.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { run } from './project.js';

test('every relative link of a shipped page resolves inside the package', async () => {
  const packed = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], packageRoot, process.env);
  expect(packed.code).toBe(0);
  const [entry] = JSON.parse(packed.stdout) as { files: { path: string }[] }[];
  const files = new Set((entry?.files ?? []).map((file) => file.path));
  const inside = (path: string): boolean => files.has(path) || [...files].some((file) => file.startsWith(`${path}/`));
  const pages = [...files].filter((path) => path.endsWith('.md'));
  expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/frontend.md', 'docs/webhooks.md']));
  const broken: string[] = [];
  for (const page of pages) {
    const markdown = await readFile(join(packageRoot, page), 'utf8');
    for (const [, link = ''] of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
      const path = link.split('#')[0] ?? '';
      if (/^[a-z]+:/i.test(link) || path === '') {
        continue;
      }
      const target = normalize(join(dirname(page), path)).replace(/\/$/, '');
      if (!inside(target)) {
        broken.push(`${page} -> ${link}`);
      }
    }
  }
  expect(broken).toEqual([]);
}, 120_000);
