/**
 * boardkit as an installed package, the way implementers and frontend teams use it: the repository packed
 * with `npm pack`, the tarball installed into a new empty project (dependencies from the registry, npm's
 * cache reused), and every command's quick path run from that project through its `boardkit` bin. After
 * each step nothing inside `node_modules` may have been added, removed or changed: outputs belong in the
 * user's folder, caches in the user's cache directory (here a temporary one, so `fuzz` builds its
 * Schemathesis environment on first use, for real).
 *
 * The quick paths are one table, in order (the server `serve` starts is the target of the later rows),
 * and every command `boardkit --help` lists must have a row.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { managedVenvDir, reportFiles } from '../../src/fuzz/index.js';
import { freePort } from '../../src/mock/prism.js';
import { verifyDelivery } from '../../src/webhooks/signing.js';
import {
  installProject,
  packKit,
  recordTree,
  run,
  seedPrebuiltSqlite,
  start,
  treeChanges,
  userEnvironment,
  type Run,
  type Started,
} from './project.js';

const apiKey = 'sk_test_installedpackage000001';
const minutes = (count: number): number => count * 60_000;

let scratch: string;
let project: string;
let env: NodeJS.ProcessEnv;
let untouched: Map<string, string>;
const servers: Started[] = [];
let target = '';
let installOutput = '';

const inProject = (...parts: string[]): string => join(project, ...parts);
const boardkit = (...args: string[]): Promise<Run> =>
  run(inProject('node_modules', '.bin', 'boardkit'), args, project, env);
const startBoardkit = (args: string[], ready: RegExp): Promise<Started> =>
  start(inProject('node_modules', '.bin', 'boardkit'), args, project, env, ready).then((started) => {
    servers.push(started);
    return started;
  });

function expectSuccess(result: Run): void {
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect({ code: result.code, stdout: result.stdout.slice(-3000), stderr: result.stderr.slice(-2000) }).toMatchObject({
    code: 0,
  });
}

async function healthOf(baseUrl: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}/v1/health`);
  return { status: response.status, body: await response.json() };
}

/** The commands `boardkit --help` lists. */
async function listedCommands(): Promise<string[]> {
  const help = await boardkit('--help');
  const section = help.stdout.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)]
    .map((match) => match[1] ?? '')
    .filter((name) => name !== 'help');
}

/** The strict program a frontend team writes: the typed client and the contract's types. */
const clientProgram = `import { createBoardClient } from 'boardkit/client';
import { createContractValidator, loadContract, type components } from 'boardkit';

type Health = components['schemas']['Health'];

const [baseUrl = '', apiKey = ''] = process.argv.slice(2);
const board = createBoardClient({ baseUrl, apiKey });
const { data, error } = await board.GET('/v1/health');
if (error !== undefined || data === undefined) {
  throw new Error('no health answer');
}
const status: Health['status'] = data.status;
const { valid } = createContractValidator(loadContract()).validate('#/components/schemas/Health', data);
console.log(JSON.stringify({ status, valid }));
`;

/** A user's script reading a session's events through the helper of `boardkit/client`, printing each name. */
const streamProgram = `import { readSessionEvents } from 'boardkit/client';

const [baseUrl = '', apiKey = '', id = ''] = process.argv.slice(2);
for await (const event of readSessionEvents({ baseUrl, apiKey }, id)) {
  console.log(event.event);
}
`;

const wrongProgram = `import { createBoardClient } from 'boardkit/client';

const board = createBoardClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test_x' });
const { data } = await board.GET('/v1/health');
console.log(data?.no_such_member);
`;

/**
 * The tsconfig a user's project needs (docs/frontend.md): `strict` with library checks on, so every
 * declaration the package exposes, and those of the packages it refers to, is checked as the user's
 * compiler would (no `skipLibCheck`).
 */
const strictConfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: false,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    types: ['node'],
    outDir: 'dist',
  },
  files: ['main.ts'],
};

/**
 * The module settings people use, each checked without `skipLibCheck`; node10 via the package's
 * `typesVersions`. `"module": "preserve"` (docs/frontend.md) resolves as `bundler` does and implies
 * `esModuleInterop`, so the stricter `esnext` row checks what it would.
 */
const moduleSettings: Record<string, Record<string, unknown>> = {
  nodenext: { module: 'NodeNext', moduleResolution: 'NodeNext' },
  bundler: { module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'] },
  node10: { module: 'ESNext', moduleResolution: 'Node10' },
};

/** The TypeScript blocks (info string `ts`) of the shipped docs that use the package, one program per page. */
async function docsPrograms(): Promise<Map<string, string>> {
  const packaged = inProject('node_modules', 'boardkit');
  const pages = [
    'README.md',
    ...(await readdir(join(packaged, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => join('docs', name)),
  ];
  const programs = new Map<string, string>();
  for (const page of pages) {
    const markdown = await readFile(join(packaged, page), 'utf8');
    // A test file of docs/testing.md is run by its test runner (the `library` row), not compiled here.
    const blocks = [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)]
      .map((match) => match[1] ?? '')
      .filter((block) => !/from '(vitest|@jest\/globals)'/.test(block));
    if (blocks.some((block) => /from '(boardkit|@modelcontextprotocol\/sdk)/.test(block))) {
      programs.set(`docs-${page.replace(/\W+/g, '-')}.ts`, blocks.join('\n'));
    }
  }
  return programs;
}

interface QuickPath {
  /** The top-level command the row covers. */
  command: string;
  title: string;
  check: () => Promise<void>;
}

const quickPaths: QuickPath[] = [
  {
    command: '--help',
    title: 'every command prints its help',
    check: async () => {
      for (const command of await listedCommands()) {
        const help = await boardkit(command, '--help');
        expectSuccess(help);
        expect(help.stdout).toContain(`Usage: boardkit ${command}`);
      }
    },
  },
  {
    command: 'bundle',
    title: 'a designer bundles their copy of the contract into their project, and --check passes',
    check: async () => {
      await cp(inProject('node_modules', 'boardkit', 'openapi'), inProject('openapi'), { recursive: true });
      await rm(inProject('openapi', 'dist'), { recursive: true });
      expectSuccess(await boardkit('bundle', '--root', 'openapi/openapi.yaml'));
      const check = await boardkit('bundle', '--check', '--root', 'openapi/openapi.yaml');
      expectSuccess(check);
      expect(check.stdout).toBe('All 3 artefacts are fresh.\n');
      expect(await readFile(inProject('openapi', 'dist', 'openapi.json'), 'utf8')).toBe(
        await readFile(inProject('node_modules', 'boardkit', 'openapi', 'dist', 'openapi.json'), 'utf8'),
      );
      expect(existsSync(inProject('src', 'generated', 'openapi.ts'))).toBe(true);
    },
  },
  {
    command: 'lint',
    title:
      "--root lints the designer's copy with the packaged configuration: the one finding of an edit, located relative to their project",
    check: async () => {
      await writeFile(
        inProject('openapi', 'paths', 'v1_health.yaml'),
        (await readFile(inProject('openapi', 'paths', 'v1_health.yaml'), 'utf8')).replace(
          /^(\s+)summary:.*$/m,
          '$1x-dropped-summary: true',
        ),
      );
      const lint = await boardkit('lint', '--root', 'openapi/openapi.yaml');
      expect(lint.code).toBe(1);
      expect(lint.stdout).toMatch(/^openapi\/paths\/v1_health\.yaml:\d+:\d+ +\S+ +\S+\/operation-summary/m);
      // Nothing else: the packaged contract, of which this is a copy, lints clean.
      expect(lint.stdout).toMatch(/^1 error, 0 warnings$/m);
      await cp(
        inProject('node_modules', 'boardkit', 'openapi', 'paths', 'v1_health.yaml'),
        inProject('openapi', 'paths', 'v1_health.yaml'),
      );
    },
  },
  {
    command: 'diff',
    title: 'the packaged contract and the copy pass the breaking-change guard',
    check: async () => {
      expectSuccess(await boardkit('diff'));
      const copy = await boardkit('diff', '--root', 'openapi/openapi.yaml');
      expectSuccess(copy);
      expect(copy.stdout).toContain('No undeclared breaking change against openapi/released/v1.json.');
    },
  },
  {
    command: 'docs',
    title: '--out gets the reference and the generated pages',
    check: async () => {
      expectSuccess(await boardkit('docs', '--out', 'apidocs'));
      expect((await readdir(inProject('apidocs'))).sort()).toEqual([
        'errors.md',
        'index.html',
        'provenance.md',
        'variant-map.md',
      ]);
    },
  },
  {
    command: 'scaffold-handlers',
    title: 'finds every operation handled',
    check: async () => {
      const scaffold = await boardkit('scaffold-handlers');
      expectSuccess(scaffold);
      expect(scaffold.stdout).toBe('Every operation of the contract has a handler.\n');
    },
  },
  {
    command: 'serve',
    title: 'answers a request, its store in the project',
    check: async () => {
      // As the reference server's own fuzz test runs it (test/fuzz/reference-server.test.ts): simulated time
      // fast enough that long-polls end before Schemathesis's read timeout, and credits for every start.
      const args = [
        'serve',
        '--port',
        '0',
        '--api-key',
        apiKey,
        '--allow-loopback-webhooks',
        '--time-scale',
        '600',
        '--credits',
        '1000000000',
      ];
      const server = await startBoardkit(args, /listening on\s+(http:\/\/127\.0\.0\.1:\d+)/);
      target = server.baseUrl;
      expect((await healthOf(target)).status).toBe(200);
      expect(existsSync(inProject('.boardkit', 'board.db'))).toBe(true);
    },
  },
  {
    command: 'mock',
    title: 'answers a request with an example',
    check: async () => {
      const port = await freePort();
      const mock = await startBoardkit(
        ['mock', '--port', String(port)],
        /Mock of the Decision-Board API[^\n]*listening on\s+(http:\/\/127\.0\.0\.1:\d+)/,
      );
      expect(await healthOf(mock.baseUrl)).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(await mock.stop()).toBe(0);
    },
  },
  {
    command: 'proxy',
    title: 'forwards a request to the server',
    check: async () => {
      const port = await freePort();
      const proxy = await startBoardkit(
        ['proxy', '--upstream', target, '--port', String(port)],
        /Validation proxy listening on (http:\/\/127\.0\.0\.1:\d+)/,
      );
      expect((await healthOf(proxy.baseUrl)).status).toBe(200);
      expect(await proxy.stop()).toBe(0);
    },
  },
  {
    command: 'conformance',
    title: 'is green against serve, reports in the project',
    check: async () => {
      const suite = await boardkit('conformance', '--target', target, '--api-key', apiKey, '--only', 'auth,problems');
      expectSuccess(suite);
      expect(suite.stdout.trimEnd().split('\n').at(-1)).toBe(
        'Verdict: conformant (every selected MUST requirement ran and passed).',
      );
      expect((await readdir(inProject('reports', 'conformance'))).sort()).toEqual([
        'junit.xml',
        'report.html',
        'report.json',
      ]);
    },
  },
  {
    command: 'fuzz',
    title: 'with no Python on PATH, says what it needs and installs nothing',
    check: async () => {
      const emptyPath = join(scratch, 'empty-path');
      await mkdir(emptyPath, { recursive: true });
      const bin = inProject('node_modules', 'boardkit', 'bin', 'boardkit.js');
      const args = [bin, 'fuzz', '--target', target, '--api-key', apiKey, '--max-examples', '1'];
      const fuzz = await run(process.execPath, args, project, { ...env, PATH: emptyPath });
      expect(fuzz.code).toBe(2);
      expect(fuzz.stderr).toMatch(
        /^boardkit: boardkit fuzz installs Schemathesis [\d.]+ on first use and needs Python 3\.11 or later for it, but no Python was found on PATH\./,
      );
      expect(fuzz.stderr).toContain('--schemathesis PATH');
      expect(existsSync(managedVenvDir(join(env['XDG_CACHE_HOME'] ?? '', 'boardkit')))).toBe(false);
    },
  },
  {
    command: 'fuzz',
    title: 'installs Schemathesis in the user cache on first use and passes against serve',
    check: async () => {
      // The examples phase keeps this test short; the times of whole runs against serve are in docs/fuzzing.md.
      const fuzz = await boardkit(
        'fuzz',
        '--target',
        target,
        '--api-key',
        apiKey,
        '--max-examples',
        '1',
        '--phases',
        'examples',
      );
      expectSuccess(fuzz);
      expect(fuzz.stderr).toContain(`first use: installing Schemathesis`);
      expect(existsSync(managedVenvDir(join(env['XDG_CACHE_HOME'] ?? '', 'boardkit')))).toBe(true);
      expect(existsSync(inProject('reports', 'fuzz', reportFiles.summary))).toBe(true);
    },
  },
  {
    command: 'webhooks',
    title: 'trigger sends a signed delivery to a receiver on this machine',
    check: async () => {
      const secret = 'whsec_installedpackagereceiver01';
      const received: { headers: IncomingHttpHeaders; body: string }[] = [];
      const receiver = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
          response.writeHead(204).end();
        });
      });
      await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
      try {
        const { port } = receiver.address() as AddressInfo;
        const trigger = await boardkit(
          'webhooks',
          'trigger',
          'session.complete',
          '--url',
          `http://127.0.0.1:${port}/hooks`,
          '--secret',
          secret,
        );
        expectSuccess(trigger);
        expect(received).toHaveLength(1);
        const [delivery] = received;
        expect(
          verifyDelivery({ secret, rawBody: delivery?.body ?? '', headers: delivery?.headers ?? {}, now: Date.now() }),
        ).toEqual({ ok: true });
      } finally {
        await new Promise((closed) => receiver.close(closed));
      }
    },
  },
  {
    command: 'install',
    title: 'npm installs the tarball on this Node without an engine warning',
    check: async () => {
      expect(installOutput).not.toMatch(/EBADENGINE/);
      const manifest = JSON.parse(await readFile(inProject('node_modules', 'boardkit', 'package.json'), 'utf8')) as {
        engines: { node: string };
      };
      const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
      const [wantMajor = 0, wantMinor = 0] = (/(\d+)\.(\d+)/.exec(manifest.engines.node) ?? []).slice(1).map(Number);
      // This machine's Node is the lowest line the package declares, so the warning would show here.
      expect(major === wantMajor && minor >= wantMinor).toBe(true);
    },
  },
  {
    command: 'client',
    title:
      "the docs' TypeScript examples compile against the installed package in every module setting, without skipLibCheck",
    check: async () => {
      const tsc = inProject('node_modules', 'typescript', 'bin', 'tsc');
      const programs = await docsPrograms();
      expect([...programs.keys()]).toEqual(
        expect.arrayContaining(['docs-README-md.ts', 'docs-docs-frontend-md.ts', 'docs-docs-webhooks-md.ts']),
      );
      for (const [file, source] of programs) {
        await writeFile(inProject(file), source);
      }
      await writeFile(inProject('main.ts'), clientProgram);
      // One configuration file per setting, compiled two at a time: each compiler mostly checks declarations
      // on one core, and the settings share nothing.
      const compileIn = async ([name, settings]: [string, Record<string, unknown>]): Promise<void> => {
        // The settings are there for boardkit's declarations. A page that uses only the MCP SDK is compiled
        // in the first (its own declarations and zod's are the heaviest part of a check, and under node10
        // they need esModuleInterop).
        const files = [...programs]
          .filter(([, source]) => name === 'nodenext' || /from 'boardkit/.test(source))
          .map(([file]) => file);
        const config = {
          compilerOptions: { ...strictConfig.compilerOptions, ...settings, noEmit: true },
          files: ['main.ts', ...files],
        };
        await writeFile(inProject(`tsconfig.${name}.json`), JSON.stringify(config, null, 2));
        const compiled = await run(process.execPath, [tsc, '-p', `tsconfig.${name}.json`], project, env);
        expect({ name, code: compiled.code, stdout: compiled.stdout }).toEqual({ name, code: 0, stdout: '' });
      };
      const settings = Object.entries(moduleSettings);
      await Promise.all(
        [0, 1].map(async (lane) => {
          for (const setting of settings.filter((_, index) => index % 2 === lane)) {
            await compileIn(setting);
          }
        }),
      );
    },
  },
  {
    command: 'library',
    title:
      "docs/testing.md's vitest example passes under the project's vitest: startServer, a queued fault, the journal, a completed session, a data reset, runConformance's verdict and startMock",
    check: async () => {
      const page = await readFile(inProject('node_modules', 'boardkit', 'docs', 'testing.md'), 'utf8');
      const [example = ''] = [...page.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
      expect(example).toContain('runConformance');
      await writeFile(inProject('board.test.ts'), example);
      const vitest = inProject('node_modules', 'vitest', 'vitest.mjs');
      // Without vitest's own results cache, which it keeps inside node_modules.
      const result = await run(process.execPath, [vitest, 'run', '--no-cache', 'board.test.ts'], project, {
        ...env,
        NO_COLOR: '1',
      });
      expect({ code: result.code, out: result.stdout.slice(-2000) }).toMatchObject({ code: 0 });
      expect(result.stdout).toMatch(/Tests\s+5 passed/);
    },
  },
  {
    command: 'client',
    title: 'the event stream of a session is read through the helper to its final event',
    check: async () => {
      const started = await fetch(`${target}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'boardroom', title: 'Installed package', synths: ['cfo', 'skeptic'], rounds: 2 }),
      });
      const { id, session_id: sessionId } = (await started.json()) as { id?: string; session_id?: string };
      await writeFile(inProject('stream.mjs'), streamProgram);
      const read = await run(process.execPath, ['stream.mjs', target, apiKey, id ?? sessionId ?? ''], project, env);
      expectSuccess(read);
      expect(read.stdout.trim().split('\n').at(-1)).toBe('session.complete');
    },
  },
  {
    command: 'client',
    title: 'a strict TypeScript program compiles against boardkit/client and boardkit, and runs',
    check: async () => {
      const tsc = inProject('node_modules', 'typescript', 'bin', 'tsc');
      // The declarations themselves are checked, with this program, in every module setting by the row above;
      // here the program is built and run, and a wrong one refused.
      const config = { ...strictConfig, compilerOptions: { ...strictConfig.compilerOptions, skipLibCheck: true } };
      await writeFile(inProject('tsconfig.json'), JSON.stringify(config, null, 2));
      await writeFile(inProject('main.ts'), clientProgram);
      expectSuccess(await run(process.execPath, [tsc, '-p', '.'], project, env));
      const ran = await run(process.execPath, ['dist/main.js', target, apiKey], project, env);
      expectSuccess(ran);
      expect(JSON.parse(ran.stdout)).toEqual({ status: 'ok', valid: true });

      await writeFile(inProject('tsconfig.json'), JSON.stringify({ ...config, files: ['wrong.ts'] }, null, 2));
      await writeFile(inProject('wrong.ts'), wrongProgram);
      const wrong = await run(process.execPath, [tsc, '-p', '.', '--noEmit'], project, env);
      expect(wrong.code).not.toBe(0);
      expect(wrong.stdout).toMatch(/wrong\.ts\(5,\d+\): error TS2339: Property 'no_such_member' does not exist/);
    },
  },
];

beforeAll(async () => {
  if (!existsSync(join(packageRoot, 'lib', 'src', 'cli', 'index.js'))) {
    throw new Error('lib/ is missing: run `npm run build` (npm test does it first)');
  }
  scratch = await mkdtemp(join(tmpdir(), 'boardkit-installed-'));
  project = join(scratch, 'project');
  env = await userEnvironment(join(scratch, 'cache'));
  const [tarball] = await Promise.all([packKit(join(scratch, 'pack'), env), seedPrebuiltSqlite(scratch)]);
  const installed = await installProject(project, tarball, env);
  installOutput = installed.stdout + installed.stderr;
  untouched = recordTree(inProject('node_modules'));
}, minutes(15));

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  if (scratch !== undefined) {
    await rm(scratch, { recursive: true, force: true });
  }
}, minutes(1));

describe('boardkit installed in a new project', () => {
  test('every command has a quick path', async () => {
    const covered = new Set(quickPaths.map((row) => row.command));
    expect((await listedCommands()).filter((command) => !covered.has(command))).toEqual([]);
  });

  for (const row of quickPaths) {
    test(
      `${row.command}: ${row.title}; nothing written inside node_modules`,
      async () => {
        await row.check();
        expect(treeChanges(untouched, recordTree(inProject('node_modules')))).toEqual([]);
      },
      minutes(6),
    );
  }
});
