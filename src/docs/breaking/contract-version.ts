/**
 * One side of a diff: a contract file (bundled JSON or YAML, or the root of a split source, bundled here
 * with the project's bundler) or a git revision, whose split source is read with `git archive` into a
 * scratch folder and bundled the same way. Nothing is left behind.
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { parseContract, type OpenApiDocument } from '../../contract/load.js';

export interface ContractVersion {
  document: OpenApiDocument;
  /** How reports name it: the path as given, or `main (git)`. */
  label: string;
}

/** Runs a command; resolves its standard output, rejects with its standard error. */
function run(command: string, args: string[], cwd: string, stdin?: NodeJS.ReadableStream): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    if (stdin === undefined) {
      child.stdin.end();
    } else {
      stdin.pipe(child.stdin);
    }
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(out) : fail(new Error(err.trim() || `${command} exited ${code}`))));
  });
}

/** Whether a document still has references to other files, i.e. is a split source to bundle first. */
function hasFileReferences(value: unknown): boolean {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const ref = (value as Record<string, unknown>)['$ref'];
  return (typeof ref === 'string' && !ref.startsWith('#')) || Object.values(value).some(hasFileReferences);
}

async function bundled(root: string): Promise<OpenApiDocument> {
  // Loaded on use: the bundler pulls in openapi-typescript and the TypeScript compiler.
  const { bundleDocument } = await import('../../bundle/index.js');
  return parseContract(JSON.stringify(await bundleDocument(root)), root);
}

/** A contract file: JSON or YAML, bundled or a split source's root file. */
export async function contractFile(path: string, label = path): Promise<ContractVersion> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? new Error(`no contract at ${path}`) : error;
  });
  // JSON first: the YAML parser reads JSON too, but thirty times slower.
  const document = /^\s*\{/.test(text) ? (JSON.parse(text) as unknown) : (parse(text) as unknown);
  if (hasFileReferences(document)) {
    return { document: await bundled(path), label };
  }
  return { document: parseContract(JSON.stringify(document), label), label };
}

const isFile = (path: string): Promise<boolean> =>
  stat(path).then(
    (found) => found.isFile(),
    () => false,
  );

/**
 * The contract at a git revision: the split source at the same place as `root` (the root file of the
 * revision compared, inside a git work tree), as committed at `revision`.
 */
export async function contractAtRevision(revision: string, root: string): Promise<ContractVersion> {
  const folder = dirname(root);
  const unknown = (): never => {
    throw new Error(`${revision} is neither a contract file nor a git revision of the repository holding ${root}`);
  };
  const top = (await run('git', ['rev-parse', '--show-toplevel'], folder).catch(unknown)).trim();
  const commit = (
    await run('git', ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], folder).catch(unknown)
  ).trim();
  // Git names the top folder without symbolic links (`/tmp` may be one), so the root is compared likewise.
  const rootInRepository = relative(top, await realpath(root));
  const inRepository = dirname(rootInRepository);
  await run('git', ['cat-file', '-e', `${commit}:${rootInRepository}`], top).catch(() => {
    throw new Error(`${revision} has no ${rootInRepository}`);
  });
  const scratch = await mkdtemp(join(tmpdir(), 'boardkit-revision-'));
  try {
    const archive = spawn('git', ['archive', '--format=tar', commit, '--', inRepository], { cwd: top });
    await run('tar', ['-x', '-C', scratch], scratch, archive.stdout);
    const rootThen = join(scratch, rootInRepository);
    return { document: await bundled(rootThen), label: `${revision} (git)` };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * `--base` or `--revision` as given: a file when one is there (a name ending in `.json`, `.yaml` or
 * `.yml` is always taken as a file), else a git revision of the repository holding `root`.
 */
export async function contractVersion(given: string, root: string, cwd = process.cwd()): Promise<ContractVersion> {
  const path = resolve(cwd, given);
  return (await isFile(path)) || /\.(json|ya?ml)$/i.test(given)
    ? contractFile(path, given)
    : contractAtRevision(given, root);
}
