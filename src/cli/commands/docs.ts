/**
 * `boardkit docs`: regenerates the documentation pages derived from the contract (variant map,
 * provenance report, error catalog), with the packaged contract also the conformance suite's requirement
 * list, and builds the offline API reference. Everything is written under the folder the command runs in
 * (`docs/` and `docs/site/`), or into `--out`; never into the package.
 * @module
 */
import { basename, dirname, join, relative, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { commandLine } from '../command-line.js';
import { contractSource, type ContractSource } from '../contract-source.js';

interface DocsOptions {
  out?: string;
  root?: string;
  pagesOnly?: boolean;
  siteOnly?: boolean;
  check?: boolean;
  watch?: boolean;
}

/**
 * `--watch`: builds the API reference from the contract source now and after every change to it, until
 * Ctrl-C (`../watch.ts`). The generated pages are left to `boardkit docs --pages-only`, which reads the
 * committed bundle.
 */
async function watchReference(options: DocsOptions): Promise<void> {
  const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { toYaml } = await import('../../bundle/document.js');
  const { contractRoot } = await import('../../contract/paths.js');
  const { buildReference, defaultSitePath } = await import('../../docs/reference.js');
  const { watchContract } = await import('../watch.js');
  const { runUntilStopped } = await import('../serving.js');
  const root = options.root === undefined ? contractRoot : resolve(options.root);
  const siteDir = resolve(options.out ?? defaultSitePath);
  const scratch = await mkdtemp(join(tmpdir(), 'boardkit-docs-watch-'));
  const watcher = watchContract({
    root,
    print: (text) => process.stdout.write(text),
    apply: async (document) => {
      const file = join(scratch, 'openapi.yaml');
      await writeFile(file, toYaml(document));
      process.stdout.write(`Wrote ${relative(process.cwd(), await buildReference(siteDir, file))} (opens offline)\n`);
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

/**
 * The pages of the contract; with `withRequirements` also the requirement list of the conformance suite,
 * a page of the kit's own docs: written beside the others for the packaged contract (a `--root` contract
 * is not the suite's), and left out of an `--out` folder, which holds a contract's reference and pages.
 */
async function generatedPages(
  source: ContractSource,
  withRequirements: boolean,
): Promise<Array<{ path: string; content: string }>> {
  const { renderPages } = await import('../../docs/pages.js');
  if (!withRequirements) {
    return renderPages(source.document);
  }
  const { requirementListPage } = await import('../../../conformance/requirement-list.js');
  return [...renderPages(source.document), requirementListPage()];
}

async function checkPages(source: ContractSource, withRequirements: boolean, root: string | undefined): Promise<void> {
  const { stalePages } = await import('../../docs/pages.js');
  const pages = await generatedPages(source, withRequirements);
  const stale = await stalePages(pages, process.cwd());
  if (stale.length > 0) {
    const list = stale.map((path) => `  ${path}\n`).join('');
    process.stdout.write(
      `Stale pages (run \`${commandLine('docs', { '--pages-only': true, '--root': root })}\` and commit them):\n${list}`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write(`All ${pages.length} generated pages are fresh.\n`);
  }
}

/** The pages keep their `docs/` paths in the working directory; with `--out` they sit beside the reference. */
async function writeGeneratedPages(
  source: ContractSource,
  out: string | undefined,
  withRequirements: boolean,
): Promise<void> {
  const { writePages } = await import('../../docs/pages.js');
  const rendered = await generatedPages(source, withRequirements);
  const pages = out === undefined ? rendered : rendered.map((page) => ({ ...page, path: basename(page.path) }));
  const target = out ?? process.cwd();
  await writePages(pages, target);
  process.stdout.write(pages.map((page) => `Wrote ${relative(process.cwd(), resolve(target, page.path))}\n`).join(''));
}

export function docsCommand(): Command {
  return new Command('docs')
    .description(
      'regenerate docs/{variant-map,provenance,errors,conformance-requirements}.md and build the API reference into docs/site/ (under the current folder)',
    )
    .option(
      '--out <dir>',
      'write the API reference (index.html) and the generated pages into this folder (default: docs/site and docs)',
    )
    .option(
      '--root <file>',
      "document this contract's split source, e.g. your copy of openapi/openapi.yaml (default: the packaged contract)",
    )
    .addOption(new Option('--pages-only', 'regenerate the pages; do not build the API reference').conflicts('siteOnly'))
    .option('--site-only', 'build the API reference; leave the pages alone')
    .addOption(
      new Option('--check', 'write nothing; exit 1 listing the generated pages that are stale').conflicts([
        'pagesOnly',
        'siteOnly',
        'out',
      ]),
    )
    .addOption(
      new Option(
        '--watch',
        'build the API reference from the contract source (--root, or the packaged one) on every change to it',
      ).conflicts(['check', 'pagesOnly']),
    )
    .action(async (options: DocsOptions) => {
      if (options.watch === true) {
        await watchReference(options);
        return;
      }
      const source = await contractSource(options.root);
      try {
        if (options.check === true) {
          await checkPages(source, options.root === undefined, options.root);
          return;
        }
        const out = options.out === undefined ? undefined : resolve(options.out);
        if (options.siteOnly !== true) {
          await writeGeneratedPages(source, out, options.root === undefined && out === undefined);
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
