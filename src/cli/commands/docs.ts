/**
 * `boardkit docs`: regenerates the documentation pages derived from the contract (variant map,
 * provenance report, error catalog) and from the conformance registry (the requirement list), and builds
 * the offline API reference into `docs/site/`.
 * @module
 */
import { dirname, resolve } from 'node:path';
import { Command, Option } from 'commander';

interface DocsOptions {
  out?: string;
  pagesOnly?: boolean;
  siteOnly?: boolean;
  check?: boolean;
  watch?: boolean;
  root?: string;
}

/**
 * `--watch`: builds the API reference from the contract source now and after every change to it, until
 * Ctrl-C (`../watch.ts`). The generated pages are left to `boardkit docs --pages-only`, which reads the
 * committed bundle.
 */
async function watchReference(options: DocsOptions): Promise<void> {
  const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { toYaml } = await import('../../bundle/document.js');
  const { contractRoot } = await import('../../contract/paths.js');
  const { buildReference } = await import('../../docs/reference.js');
  const { watchContract } = await import('../watch.js');
  const { runUntilStopped } = await import('../serving.js');
  const root = options.root === undefined ? contractRoot : resolve(options.root);
  const siteDir = options.out === undefined ? undefined : resolve(options.out);
  const scratch = await mkdtemp(join(tmpdir(), 'boardkit-docs-watch-'));
  const watcher = watchContract({
    root,
    print: (text) => process.stdout.write(text),
    apply: async (document) => {
      const file = join(scratch, 'openapi.yaml');
      await writeFile(file, toYaml(document as unknown as Record<string, unknown>));
      process.stdout.write(`Wrote ${await buildReference(siteDir, file)} (opens offline)\n`);
    },
  });
  await watcher.build();
  process.stdout.write(`Watching ${dirname(root)} for changes; Ctrl-C stops.\n`);
  let stopped = (): void => undefined;
  const exited = new Promise<number>((done) => (stopped = () => done(0)));
  await runUntilStopped({
    exited,
    stop: async () => {
      watcher.close();
      await rm(scratch, { recursive: true, force: true });
      stopped();
    },
  });
  process.stdout.write('Stopped watching.\n');
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
    .addOption(new Option('--watch', 'build the API reference from the contract source on every change to it').conflicts(['check', 'pagesOnly']))
    .option('--root <file>', 'with --watch: the contract root file (default: openapi/openapi.yaml)')
    .action(async (options: DocsOptions) => {
      if (options.watch === true) {
        await watchReference(options);
        return;
      }
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
