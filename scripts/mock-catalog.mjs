#!/usr/bin/env node
// Writes the example catalog of mocks/README.md from the contract (src/mock/catalog.ts); with `--check`,
// writes nothing and exits 1 when the README is stale. Runs the compiled lib/: `npm run build` first.
import { readFile, writeFile } from 'node:fs/promises';
import { contractCatalog, mocksReadme, replaceCatalog } from '../lib/src/mock/catalog.js';

const current = await readFile(mocksReadme, 'utf8');
const fresh = replaceCatalog(current, contractCatalog());
if (fresh === current) {
  process.stdout.write('mocks/README.md: the example catalog is fresh.\n');
} else if (process.argv.includes('--check')) {
  process.stdout.write('mocks/README.md: the example catalog is stale; run `node scripts/mock-catalog.mjs`.\n');
  process.exitCode = 1;
} else {
  await writeFile(mocksReadme, fresh);
  process.stdout.write('Wrote the example catalog of mocks/README.md.\n');
}
