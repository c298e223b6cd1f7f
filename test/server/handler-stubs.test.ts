/**
 * Adding an operation to the contract and regenerating yields a typed stub to fill: on a copy of the
 * contract with one more operation, bundled and typed, the handler map no longer compiles; the stub the
 * generator writes compiles, completes the map, and holds the operation's type, so a body that returns an
 * undocumented response does not compile. At run time a stub answers 501, which response checking reports.
 *
 * The regenerated types and the modules written for the new operation go to a scratch folder, never into the
 * package; the compiler reads the package's own sources with those files laid over them, under the package's
 * compiler options, so only the files the handler map reaches are read and nothing of `src/` is copied.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderArtefacts, writeArtefacts } from '../../src/bundle/index.js';
import { loadContract } from '../../src/contract/load.js';
import { packageRoot } from '../../src/contract/paths.js';
import { handlerStubs, writeHandlerStubs, type HandlerStub } from '../../src/server/http/handler-stubs.js';
import type { ResponseViolation } from '../../src/server/ports/app.js';
import type { HandlerMap } from '../../src/server/ports/handlers.js';
import { handlers } from '../../src/server/http/handlers/index.js';
import { notImplemented } from '../../src/server/http/not-implemented.js';
import { buildApp } from '../../src/server/http/app.js';
import { manualClock } from '../../src/server/core/clock.js';
import { retrySchedules } from '../../src/webhooks/retry.js';
import { createServices } from '../../src/server/server.js';
import { createStore } from '../../src/server/store/index.js';

const newPath = `get:
  operationId: listSessionTags
  summary: List the tags of a session
  description: The tags of a session, for the test of scaffolded handlers.
  tags: [Sessions]
  x-provenance: designed
  x-rate-limit-bucket: reads
  parameters:
    - $ref: ../components/parameters/SessionIdPath.yaml
  responses:
    '200':
      description: The tags.
      content:
        application/json:
          schema:
            type: object
            required: [tags]
            properties:
              tags: {type: array, items: {type: string}}
    '404':
      $ref: ../components/responses/NotFound.yaml
`;

let scratch: string;
let stub: HandlerStub;
let diagnostics: ts.Diagnostic[];

/** The compile errors of one file of the package, as `line: message`. */
function errorsIn(file: string): string[] {
  return diagnostics
    .filter((diagnostic) => diagnostic.file !== undefined && relative(packageRoot, diagnostic.file.fileName) === file)
    .map((diagnostic) => {
      const { line } = ts.getLineAndCharacterOfPosition(diagnostic.file as ts.SourceFile, diagnostic.start ?? 0);
      return `${line + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    });
}

/** A file name as the compiler gives it to its host: absolute, with forward slashes. */
function compilerPath(file: string): string {
  return file.split(sep).join('/');
}

/**
 * The options `tsc --noEmit -p .` checks the package with, so the stub is held to the same rules (a value
 * import of a type fails under `verbatimModuleSyntax`), and with the same `lib` (no DOM to read).
 */
function packageCompilerOptions(): ts.CompilerOptions {
  const configFile = join(packageRoot, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configFile, (file) => ts.sys.readFile(file));
  if (error !== undefined) {
    throw new Error(ts.flattenDiagnosticMessageText(error.messageText, ' '));
  }
  return { ...ts.parseJsonConfigFileContent(config, ts.sys, packageRoot, undefined, configFile).options, noEmit: true };
}

/**
 * The package's `src/` with every file under `overlay` (a folder laid out like `src/`) read in place of, or
 * beside, the package's own: the package as it is once `boardkit bundle` and `boardkit scaffold-handlers`
 * have written into it, without writing into it.
 */
function overlaidHost(options: ts.CompilerOptions, overlay: string): ts.CompilerHost {
  const texts = new Map<string, string>();
  for (const name of readdirSync(overlay, { recursive: true, encoding: 'utf8' })) {
    const file = join(overlay, name);
    if (statSync(file).isFile()) {
      texts.set(compilerPath(join(packageRoot, 'src', name)), readFileSync(file, 'utf8'));
    }
  }
  const host = ts.createCompilerHost(options);
  return {
    ...host,
    fileExists: (file) => texts.has(file) || host.fileExists(file),
    readFile: (file) => texts.get(file) ?? host.readFile(file),
    getSourceFile: (file, languageVersion, onError, shouldCreateNewSourceFile) => {
      const text = texts.get(file);
      return text === undefined
        ? host.getSourceFile(file, languageVersion, onError, shouldCreateNewSourceFile)
        : ts.createSourceFile(file, text, languageVersion);
    },
  };
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'boardkit-stubs-'));
  cpSync(join(packageRoot, 'openapi'), join(scratch, 'openapi'), {
    recursive: true,
    filter: (source) => !source.includes(`${join('openapi', 'dist')}`),
  });
  writeFileSync(join(scratch, 'openapi', 'paths', 'v1_sessions_{id}_tags.yaml'), newPath);
  const root = join(scratch, 'openapi', 'openapi.yaml');
  const text = readFileSync(root, 'utf8');
  writeFileSync(
    root,
    text.replace(/^paths:\n/m, 'paths:\n  /v1/sessions/{id}/tags:\n    $ref: paths/v1_sessions_{id}_tags.yaml\n'),
  );
  await writeArtefacts(await renderArtefacts({ root }), scratch);

  const document = loadContract(join(scratch, 'openapi', 'dist', 'openapi.json'));
  const stubs = handlerStubs(document, new Set(Object.keys(handlers)));
  expect(stubs.map((each) => each.operationId)).toEqual(['listSessionTags']);
  stub = stubs[0] as HandlerStub;
  const folder = join(scratch, 'src', 'server', 'http', 'handlers');
  expect((await writeHandlerStubs(stubs, folder)).written).toHaveLength(1);
  expect((await writeHandlerStubs(stubs, folder)).kept).toHaveLength(1);

  const files = {
    'complete-map.ts': [
      "import type { HandlerMap } from '../../ports/handlers.js';",
      "import { handlers } from './index.js';",
      stub.mapEntry.importLine,
      `export const complete: HandlerMap = { ...handlers, ${stub.mapEntry.entry} };`,
    ],
    'filled.ts': [
      "import type { Handler } from '../../ports/handlers.js';",
      "export const right: Handler<'listSessionTags'> = (request) => ({ status: 200, body: { tags: [request.path.id] } });",
      "export const undocumented: Handler<'listSessionTags'> = () => ({ status: 201, body: { tags: [] } });",
      "export const misshapen: Handler<'listSessionTags'> = () => ({ status: 200, body: { tags: 'pricing' } });",
    ],
  };
  for (const [name, lines] of Object.entries(files)) {
    writeFileSync(join(folder, name), `${lines.join('\n')}\n`);
  }
  const options = packageCompilerOptions();
  const roots = ['index.ts', stub.file, ...Object.keys(files)].map((name) =>
    join(packageRoot, 'src', 'server', 'http', 'handlers', name),
  );
  diagnostics = [
    ...ts.getPreEmitDiagnostics(ts.createProgram(roots, options, overlaidHost(options, join(scratch, 'src')))),
  ];
}, 120_000);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('a new operation', () => {
  test('leaves the handler map incomplete until it has a handler', () => {
    expect(errorsIn(join('src', 'server', 'http', 'handlers', 'index.ts'))).toEqual([
      expect.stringMatching(/Property 'listSessionTags' is missing/),
    ]);
  });

  test('gets a stub that compiles, is typed by the operation and completes the map', () => {
    expect(stub.file).toBe('list-session-tags.ts');
    expect(stub.content).toContain("export const listSessionTags: Handler<'listSessionTags'>");
    expect(stub.content).toContain('`200` application/json');
    expect(stub.content).toContain('`404` application/problem+json (#/components/schemas/Problem)');
    expect(errorsIn(join('src', 'server', 'http', 'handlers', stub.file))).toEqual([]);
    expect(errorsIn(join('src', 'server', 'http', 'handlers', 'complete-map.ts'))).toEqual([]);
  });

  test('forces the body written into it to return a documented response', () => {
    const errors = errorsIn(join('src', 'server', 'http', 'handlers', 'filled.ts'));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^3: .*201/);
    expect(errors[1]).toMatch(/^4: .*string/);
  });

  test('nothing else of the server stops compiling', () => {
    const elsewhere = diagnostics.filter(
      (diagnostic) =>
        !['index.ts', 'filled.ts'].some((name) => diagnostic.file?.fileName.endsWith(join('handlers', name))),
    );
    expect(elsewhere.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '))).toEqual([]);
  });
});

test('an unwritten handler answers 501, and response checking reports it', async () => {
  const store = createStore(':memory:');
  const services = createServices(
    loadContract(),
    store,
    manualClock(),
    { heartbeatMs: 15_000, region: 'US-East', allowPrivateWebhookUrls: false, retrySchedule: retrySchedules.fourWaits },
    () => 'http://127.0.0.1',
    () => undefined,
  );
  const stubbed: HandlerMap = { ...handlers, getHealth: () => notImplemented('getHealth') };
  const violations: ResponseViolation[] = [];
  const unchecked = buildApp({ services, handlers: stubbed });
  const checked = buildApp({
    services,
    handlers: stubbed,
    validateResponses: true,
    onResponseViolation: (v) => violations.push(v),
  });
  try {
    const answer = await unchecked.inject({ method: 'GET', url: '/v1/health' });
    expect(answer.statusCode).toBe(501);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.json()).toMatchObject({ type: 'about:blank', title: 'Not Implemented', status: 501 });
    expect((await checked.inject({ method: 'GET', url: '/v1/health' })).statusCode).toBe(500);
    expect(violations).toEqual([expect.objectContaining({ operationId: 'getHealth', status: 501 })]);
  } finally {
    await Promise.all([unchecked.close(), checked.close()]);
    store.close();
  }
});
