/**
 * The watch modes' loop (`boardkit mock --watch`, `boardkit docs --watch`): whenever a file in the
 * contract's folder changes, bundle the split source again in memory (Redocly into a scratch file; the
 * committed `openapi/dist/` is left alone) and lint it, then hand the new document on. A contract that
 * does not bundle, or has lint errors, is not handed on: what runs keeps the last good one, and the
 * bundle error or the lint findings are printed. Lint warnings are printed and do not hold a change back
 * (the project's bar is zero of both, which `boardkit lint` enforces before a commit).
 *
 * Changes that arrive while a build runs are gathered into one more build after it, so the last state
 * of the files is always the one built.
 * @module
 */
import { watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import { EventEmitter } from 'node:events';
import { bundleDocument } from '../bundle/index.js';
import type { OpenApiDocument } from '../contract/load.js';
import { formatFindings, lintContract, type LintResult } from '../lint/index.js';

/** What one build of the watched contract came to. */
export type BuildOutcome =
  { kind: 'applied'; lint: LintResult } | { kind: 'rejected'; reason: 'bundle' | 'lint' | 'apply'; message: string };

export interface WatchOptions {
  /** The contract's root file (`openapi/openapi.yaml`); its folder is watched. */
  root: string;
  /** Puts a new document to use; a rejection keeps the last good one. */
  apply(document: OpenApiDocument): Promise<void>;
  /** Where the loop reports what it does (the terminal in the CLI). */
  print(text: string): void;
  /** Lint each change (default true). */
  lint?: boolean;
}

export interface ContractWatch {
  /** Emits `outcome` with a `BuildOutcome` after every build. */
  events: EventEmitter;
  /** Builds now, as if a file had changed; resolves with the outcome. */
  build(): Promise<BuildOutcome>;
  close(): void;
}

/** Quiet time after the last file event before building: editors write a file in several steps. */
const settleMs = 150;

async function buildOnce(options: WatchOptions): Promise<BuildOutcome> {
  const lintRun =
    options.lint === false ? undefined : lintContract({ root: options.root, cwd: dirname(dirname(options.root)) });
  let document: OpenApiDocument;
  try {
    document = (await bundleDocument(options.root)) as unknown as OpenApiDocument;
  } catch (error) {
    await lintRun?.catch(() => undefined);
    return { kind: 'rejected', reason: 'bundle', message: error instanceof Error ? error.message : String(error) };
  }
  const lint = (await lintRun) ?? { findings: [], errors: 0, warnings: 0 };
  if (lint.errors > 0) {
    return { kind: 'rejected', reason: 'lint', message: formatFindings(lint) };
  }
  try {
    await options.apply(document);
  } catch (error) {
    return { kind: 'rejected', reason: 'apply', message: error instanceof Error ? error.message : String(error) };
  }
  return { kind: 'applied', lint };
}

function describe(outcome: BuildOutcome): string {
  if (outcome.kind === 'applied') {
    const findings = outcome.lint.findings.length > 0 ? formatFindings(outcome.lint) : '';
    return `${findings}Contract bundled${outcome.lint.findings.length === 0 ? '' : ' (lint findings above)'}.\n`;
  }
  const what = { bundle: 'does not bundle', lint: 'has lint errors', apply: 'cannot be served' }[outcome.reason];
  return `${outcome.message.trimEnd()}\nThe contract ${what}; keeping the last good version.\n`;
}

export function watchContract(options: WatchOptions): ContractWatch {
  const events = new EventEmitter();
  const folder = dirname(options.root);
  let running: Promise<BuildOutcome> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const build = (): Promise<BuildOutcome> => {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = buildOnce(options).then((outcome) => {
      running = undefined;
      options.print(describe(outcome));
      events.emit('outcome', outcome);
      if (again) {
        again = false;
        void build();
      }
      return outcome;
    });
    return running;
  };

  const watcher: FSWatcher = watch(folder, { recursive: true }, (_event, file) => {
    // `dist/` is the bundle `npm run bundle` writes, not the source.
    if (file !== null && /^dist([\\/]|$)/.test(file)) {
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => void build(), settleMs);
  });
  return {
    events,
    build,
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
