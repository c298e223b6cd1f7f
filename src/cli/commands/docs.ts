/**
 * `boardkit docs`: regenerates the documentation pages derived from the contract (variant map,
 * provenance report, error catalog) and from the conformance registry (the requirement list), and builds
 * the offline API reference into `docs/site/`.
 * @module
 */
import { resolve } from 'node:path';
import { Command, Option } from 'commander';

interface DocsOptions {
  out?: string;
  pagesOnly?: boolean;
  siteOnly?: boolean;
  check?: boolean;
}

/** Every generated page: those of the contract, and the conformance requirement list. */
async function allPages(): Promise<Array<{ path: string; content: string }>> {
  const { loadContract } = await import('../../contract/load.js');
  const { renderPages } = await import('../../docs/pages.js');
  const { requirementListPage } = await import('../../../conformance/requirement-list.js');
  return [...renderPages(loadContract()), requirementListPage()];
}

async function checkPages(): Promise<void> {
  const { stalePages } = await import('../../docs/pages.js');
  const pages = await allPages();
  const stale = await stalePages(pages);
  if (stale.length > 0) {
    const list = stale.map((path) => `  ${path}\n`).join('');
    process.stdout.write(`Stale pages (run \`boardkit docs --pages-only\` and commit them):\n${list}`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`All ${pages.length} generated pages are fresh.\n`);
  }
}

async function writeGeneratedPages(): Promise<void> {
  const { writePages } = await import('../../docs/pages.js');
  const pages = await allPages();
  await writePages(pages);
  process.stdout.write(pages.map((page) => `Wrote ${page.path}\n`).join(''));
}

export function docsCommand(): Command {
  return new Command('docs')
    .description('regenerate docs/{variant-map,provenance,errors,conformance-requirements}.md and build the API reference into docs/site/')
    .option('--out <dir>', 'write the API reference into this folder (default: docs/site)')
    .addOption(new Option('--pages-only', 'regenerate the pages; do not build the API reference').conflicts('siteOnly'))
    .option('--site-only', 'build the API reference; leave the pages alone')
    .addOption(new Option('--check', 'write nothing; exit 1 listing the generated pages that are stale').conflicts(['pagesOnly', 'siteOnly', 'out']))
    .action(async (options: DocsOptions) => {
      if (options.check === true) {
        await checkPages();
        return;
      }
      if (options.siteOnly !== true) {
        await writeGeneratedPages();
      }
      if (options.pagesOnly !== true) {
        const { buildReference } = await import('../../docs/reference.js');
        const page = await buildReference(options.out === undefined ? undefined : resolve(options.out));
        process.stdout.write(`Wrote ${page} (opens offline)\n`);
      }
    });
}
