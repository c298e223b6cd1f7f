/**
 * `boardkit docs`: regenerates the documentation pages derived from the contract (variant map,
 * provenance report, error catalog) and builds the offline API reference. Everything is written under
 * the folder the command runs in (`docs/` and `docs/site/`), or into `--out`; never into the package.
 * @module
 */
import { basename, relative, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { contractSource, type ContractSource } from '../contract-source.js';

interface DocsOptions {
  out?: string;
  root?: string;
  pagesOnly?: boolean;
  siteOnly?: boolean;
  check?: boolean;
}

async function checkPages(source: ContractSource): Promise<void> {
  const { renderPages, stalePages } = await import('../../docs/pages.js');
  const pages = renderPages(source.document);
  const stale = await stalePages(pages, process.cwd());
  if (stale.length > 0) {
    const list = stale.map((path) => `  ${path}\n`).join('');
    process.stdout.write(`Stale pages (run \`boardkit docs --pages-only\` and commit them):\n${list}`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`All ${pages.length} generated pages are fresh.\n`);
  }
}

/** The pages keep their `docs/` paths in the working directory; with `--out` they sit beside the reference. */
async function writeGeneratedPages(source: ContractSource, out: string | undefined): Promise<void> {
  const { renderPages, writePages } = await import('../../docs/pages.js');
  const rendered = renderPages(source.document);
  const pages = out === undefined ? rendered : rendered.map((page) => ({ ...page, path: basename(page.path) }));
  const target = out ?? process.cwd();
  await writePages(pages, target);
  process.stdout.write(pages.map((page) => `Wrote ${relative(process.cwd(), resolve(target, page.path))}\n`).join(''));
}

export function docsCommand(): Command {
  return new Command('docs')
    .description('regenerate docs/{variant-map,provenance,errors}.md and build the API reference into docs/site/ (under the current folder)')
    .option('--out <dir>', 'write the API reference (index.html) and the generated pages into this folder (default: docs/site and docs)')
    .option('--root <file>', "document this contract's split source, e.g. your copy of openapi/openapi.yaml (default: the packaged contract)")
    .addOption(new Option('--pages-only', 'regenerate the pages; do not build the API reference').conflicts('siteOnly'))
    .option('--site-only', 'build the API reference; leave the pages alone')
    .addOption(new Option('--check', 'write nothing; exit 1 listing the generated pages that are stale').conflicts(['pagesOnly', 'siteOnly', 'out']))
    .action(async (options: DocsOptions) => {
      const source = await contractSource(options.root);
      try {
        if (options.check === true) {
          await checkPages(source);
          return;
        }
        const out = options.out === undefined ? undefined : resolve(options.out);
        if (options.siteOnly !== true) {
          await writeGeneratedPages(source, out);
        }
        if (options.pagesOnly !== true) {
          const { buildReference, defaultSitePath } = await import('../../docs/reference.js');
          const page = await buildReference(out ?? resolve(defaultSitePath), source.yaml);
          process.stdout.write(`Wrote ${relative(process.cwd(), page)} (opens offline)\n`);
        }
      } finally {
        await source.dispose();
      }
    });
}
