/**
 * Which Schemathesis `boardkit fuzz` runs, first match wins (docs/fuzzing.md › Installation):
 * 1. the one named with `--schemathesis PATH` (used even when its version differs from the pin, with a note);
 * 2. the repository's own `.venv/` that `npm run setup` fills (a checkout of the kit);
 * 3. a `schemathesis` on PATH whose version is the pinned one (one pre-installed in CI);
 * 4. the environment the kit manages in the user's cache directory, built on first use.
 * Nothing is ever installed into the project or the package.
 * @module
 */
import { constants, existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { packageRoot } from '../contract/paths.js';
import { managedSchemathesis } from './managed-venv.js';
import { pinnedSchemathesis, schemathesisVersion } from './python.js';

export type SchemathesisSource = 'option' | 'project' | 'path' | 'managed';

export interface LocatedSchemathesis {
  executable: string;
  source: SchemathesisSource;
}

export interface LocateOptions {
  /** `--schemathesis PATH`. */
  explicit?: string;
  /** The folder the managed environment lives in; the user's cache directory by default. */
  cacheDir?: string;
  /** The PATH to search; the process's own by default. */
  path?: string;
  /** The kit's folder whose `.venv/` a checkout uses; the package root by default. */
  checkout?: string;
  onProgress?: (line: string) => void;
}

const executableName = process.platform === 'win32' ? 'schemathesis.exe' : 'schemathesis';

/** The checkout's `.venv/` entry point, present only in a clone of the kit after `npm run setup`. */
export function projectSchemathesis(root: string = packageRoot): string | undefined {
  const executable =
    process.platform === 'win32'
      ? join(root, '.venv', 'Scripts', executableName)
      : join(root, '.venv', 'bin', executableName);
  return existsSync(executable) ? executable : undefined;
}

async function onPath(path: string): Promise<string | undefined> {
  for (const folder of path.split(delimiter).filter((entry) => entry !== '')) {
    const candidate = join(folder, executableName);
    if (
      await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      )
    ) {
      return candidate;
    }
  }
  return undefined;
}

async function named(
  explicit: string,
  pinned: string,
  onProgress: (line: string) => void,
): Promise<LocatedSchemathesis> {
  // A bare name is looked up on PATH, as a shell would; a path is taken relative to the working directory.
  const executable = /[\\/]/.test(explicit) ? resolve(explicit) : explicit;
  const version = await schemathesisVersion(executable);
  if (version === undefined) {
    throw new Error(
      `--schemathesis ${explicit}: \`${executable} --version\` does not run; name a schemathesis executable`,
    );
  }
  if (version !== pinned) {
    onProgress(
      `boardkit fuzz: ${executable} is Schemathesis ${version}; the kit is tested with ${pinned}, so results may differ`,
    );
  }
  return { executable, source: 'option' };
}

export async function locateSchemathesis(options: LocateOptions = {}): Promise<LocatedSchemathesis> {
  const onProgress = options.onProgress ?? (() => undefined);
  const pinned = pinnedSchemathesis();
  if (options.explicit !== undefined) {
    return named(options.explicit, pinned, onProgress);
  }
  const project = projectSchemathesis(options.checkout);
  if (project !== undefined) {
    return { executable: project, source: 'project' };
  }
  const found = await onPath(options.path ?? process.env['PATH'] ?? '');
  if (found !== undefined) {
    const version = await schemathesisVersion(found);
    if (version === pinned) {
      return { executable: found, source: 'path' };
    }
    onProgress(
      `boardkit fuzz: ${found} is Schemathesis ${version ?? '(version unknown)'}, not the pinned ${pinned}; using the kit's own`,
    );
  }
  const executable = await managedSchemathesis({
    onProgress,
    ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
  });
  return { executable, source: 'managed' };
}
