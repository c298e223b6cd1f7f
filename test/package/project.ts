/**
 * A user's project with boardkit installed from the packed tarball, as `npm install boardkit` leaves it:
 * packing, installing, running the `boardkit` bin from the project folder (to completion, or as a server
 * until it prints its address), and a record of `node_modules` to prove no command writes inside it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { packageRoot } from '../../src/contract/paths.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program in `cwd` to completion, collecting its output. */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/**
 * The environment of the user's commands: this process's, without what `npm test` adds about this
 * repository (`npm_package_*`, `npm_lifecycle_*`, `INIT_CWD`), with no `schemathesis` on PATH (so `fuzz`
 * takes the first-use path), and the user cache in `cacheDir`. pip keeps using its usual download cache,
 * so building the managed environment does not fetch the same wheels on every run.
 */
export async function userEnvironment(cacheDir: string): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_package_|npm_lifecycle_|INIT_CWD$|BOARDKIT_)/.test(name)) {
      env[name] = value;
    }
  }
  const folders = (process.env['PATH'] ?? '').split(delimiter);
  const withoutSchemathesis: string[] = [];
  for (const folder of folders) {
    if (
      !(await lstat(join(folder, 'schemathesis')).then(
        () => true,
        () => false,
      ))
    ) {
      withoutSchemathesis.push(folder);
    }
  }
  env['PATH'] = withoutSchemathesis.join(delimiter);
  env['PIP_CACHE_DIR'] ??= join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'pip');
  env['XDG_CACHE_HOME'] = cacheDir;
  return env;
}

/** `npm pack` of this repository into `folder`; the path of the tarball. `lib/` must be built already. */
export async function packKit(folder: string, env: NodeJS.ProcessEnv): Promise<string> {
  await mkdir(folder, { recursive: true });
  // --ignore-scripts: `prepare` would build lib/ again, which `npm test` has just done.
  const packed = await run(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', folder],
    packageRoot,
    env,
  );
  if (packed.code !== 0) {
    throw new Error(`npm pack failed:\n${packed.stderr}`);
  }
  const [entry] = JSON.parse(packed.stdout) as { filename: string }[];
  if (entry === undefined) {
    throw new Error('npm pack reported no tarball');
  }
  return join(folder, entry.filename);
}

/**
 * The versions of TypeScript, Node's types and vitest this repository builds and tests with: the user's
 * compile step, and the test runner of docs/testing.md's examples.
 */
async function devVersions(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  return ['typescript', '@types/node', 'vitest'].map((name) => `${name}@${manifest.devDependencies[name] ?? 'latest'}`);
}

/**
 * Gives better-sqlite3's install step, in projects under `folder`, the prebuilt binary a user's machine
 * downloads from the package's releases (which this machine cannot reach, so it would compile SQLite for
 * minutes): a tarball of this repository's own compiled binary, of the same version, Node ABI and platform,
 * named as prebuild-install names its downloads and found through a `.prebuild-installrc` in `folder`
 * (prebuild-install reads that file from the installing package's folder upwards; `local-prebuilds` is
 * where it looks before downloading). prebuild-install unpacks it and loads it before accepting it; with no
 * compiled binary here, nothing is seeded and the install compiles as before.
 */
export async function seedPrebuiltSqlite(folder: string): Promise<void> {
  const sqlite = join(packageRoot, 'node_modules', 'better-sqlite3');
  const binary = join('build', 'Release', 'better_sqlite3.node');
  if (!existsSync(join(sqlite, binary))) {
    return;
  }
  const { version } = JSON.parse(await readFile(join(sqlite, 'package.json'), 'utf8')) as { version: string };
  const prebuilds = join(folder, 'prebuilds');
  await mkdir(prebuilds, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const packed = await run('tar', ['-czf', join(prebuilds, name), '-C', sqlite, binary], folder, process.env);
  if (packed.code !== 0) {
    throw new Error(`packing the prebuilt SQLite binary failed:\n${packed.stderr}`);
  }
  await writeFile(join(folder, '.prebuild-installrc'), `${JSON.stringify({ 'local-prebuilds': prebuilds })}\n`);
}

/**
 * An empty ES-module project in `folder` with the tarball installed, as a user would (`--prefer-offline`
 * reuses npm's cache); npm's output, for its warnings.
 */
export async function installProject(folder: string, tarball: string, env: NodeJS.ProcessEnv): Promise<Run> {
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'package.json'),
    `${JSON.stringify({ name: 'board-user', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  const args = ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...(await devVersions())];
  const installed = await run('npm', args, folder, env);
  if (installed.code !== 0) {
    throw new Error(`npm install failed:\n${installed.stderr}`);
  }
  return installed;
}

/**
 * Every file under `root` with its size and modification time. Read synchronously: tens of thousands of
 * `lstat` calls as promises cost about three times the CPU, and the record is taken after every row.
 */
export function recordTree(root: string): Map<string, string> {
  const record = new Map<string, string>();
  for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const stats = lstatSync(join(root, entry), { throwIfNoEntry: false });
    if (stats !== undefined && !stats.isDirectory()) {
      record.set(entry, `${stats.size}:${stats.mtimeMs}`);
    }
  }
  return record;
}

/** The paths added, removed or changed between two records. */
export function treeChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = [...after].filter(([path, stamp]) => before.get(path) !== stamp).map(([path]) => path);
  const removed = [...before.keys()].filter((path) => !after.has(path));
  return [...changed, ...removed].sort();
}

export interface Started {
  child: ChildProcess;
  /** The address `ready` captured. */
  baseUrl: string;
  output: () => string;
  /** Ctrl-C, then the exit code once it stopped. */
  stop: () => Promise<number | null>;
}

/**
 * Starts a foreground command (`serve`, `mock`, `proxy`) and resolves once its output matches `ready`, whose
 * first group is its address; stopped and rejected if it is not ready within `deadlineMs`.
 */
export function start(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  deadlineMs = 120_000,
): Promise<Started> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise<number | null>((resolveExit) => child.on('close', (code) => resolveExit(code)));
    const stop = async (): Promise<number | null> => {
      child.kill('SIGINT');
      return exited;
    };
    const deadline = setTimeout(() => {
      reject(new Error(`${args.join(' ')} was not ready within ${String(deadlineMs)} ms:\n${output}`));
      child.kill('SIGKILL');
    }, deadlineMs);
    const onData = (chunk: string): void => {
      output += chunk;
      const address = ready.exec(output)?.[1];
      if (address !== undefined) {
        clearTimeout(deadline);
        resolvePromise({ child, baseUrl: address, output: () => output, stop });
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.on('error', reject);
    void exited.then((code) => {
      clearTimeout(deadline);
      reject(new Error(`${args.join(' ')} exited (${String(code)}) before it was ready:\n${output}`));
    });
  });
}
