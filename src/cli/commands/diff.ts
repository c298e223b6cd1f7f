/**
 * `boardkit diff`: the review of a contract change. Lists every change between two versions of the
 * contract, classed breaking, deprecated, additive or non-breaking, in text, JSON, Markdown (a
 * pull-request comment) or GitHub annotations, and exits 1 on a breaking change to `/v1` that
 * `openapi/CHANGELOG.md` does not declare or on a breach of the contract's deprecation policy
 * (docs/versioning.md). By default it compares the contract with the last released copy
 * (`released/v1.json`); `--base` and `--revision` take any contract file or git revision. With `--root`
 * it checks a designer's copy or fork of the split source, with the `released/` copy and changelog kept
 * beside that root file.
 * @module
 */
import { readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { contractRoot } from '../../contract/paths.js';
import { contractSource } from '../contract-source.js';

interface DiffOptions {
  base?: string;
  revision?: string;
  head?: string;
  changelog?: string;
  root?: string;
  format: 'text' | 'json' | 'markdown' | 'github';
}

/** A path as the user reads it: relative to the folder the command runs in when it lies below it. */
function shown(path: string): string {
  const near = relative(process.cwd(), path);
  return near === '' || near.startsWith('..') ? path : near;
}

export function diffCommand(): Command {
  return new Command('diff')
    .description(
      'list the changes between two versions of the contract; exit 1 on an undeclared breaking change or a breach of the deprecation policy',
    )
    .option(
      '--root <file>',
      'check this split source, e.g. your copy of openapi/openapi.yaml (default: the packaged contract)',
    )
    .option(
      '--base <file|ref>',
      'the earlier contract: a contract file (JSON or YAML) or a git revision of the split source (default: released/v1.json beside the contract root)',
    )
    .option('--revision <file|ref>', 'the later contract, a file or a git revision (default: the contract root)')
    .addOption(new Option('--head <file>', 'the same as --revision').hideHelp())
    .option(
      '--changelog <file>',
      'where breaking changes are declared (default: CHANGELOG.md beside the contract root)',
    )
    .addOption(
      new Option('--format <format>', 'text, json, markdown (a pull-request comment) or github (workflow annotations)')
        .choices(['text', 'json', 'markdown', 'github'])
        .default('text'),
    )
    .action(async (options: DiffOptions) => {
      const breaking = await import('../../docs/breaking/index.js');
      const source = await contractSource(options.root);
      try {
        const root = options.root === undefined ? contractRoot : resolve(options.root);
        const released = join(source.sourceFolder, 'released', 'v1.json');
        if (
          options.base === undefined &&
          !(await stat(released).then(
            (found) => found.isFile(),
            () => false,
          ))
        ) {
          throw new Error(`no released contract at ${released} (a release copies openapi/dist/openapi.json there)`);
        }
        const base = await breaking.contractVersion(options.base ?? shown(released), root);
        const later = options.revision ?? options.head;
        const revision =
          later === undefined
            ? { document: source.document, label: shown(root) }
            : await breaking.contractVersion(later, root);
        const changelog = resolve(options.changelog ?? join(source.sourceFolder, 'CHANGELOG.md'));
        const declared = breaking.declarations(await readFile(changelog, 'utf8'));
        const report = {
          ...breaking.reviewContract(base.document, revision.document, { declared }),
          base: base.label,
          revision: revision.label,
          changelog: shown(changelog),
        };
        const locator = later === undefined ? new breaking.SourceLocator(root) : undefined;
        const render = {
          text: () => Promise.resolve(breaking.textReport(report)),
          json: () => Promise.resolve(breaking.jsonReport(report)),
          markdown: () => Promise.resolve(breaking.markdownReport(report)),
          github: () => breaking.githubReport(report, locator && ((pointer) => locator.locate(pointer))),
        };
        process.stdout.write(await render[options.format]());
        process.exitCode = breaking.reviewFails(report) ? 1 : 0;
      } finally {
        await source.dispose();
      }
    });
}
