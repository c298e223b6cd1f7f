/**
 * The import rules of docs/architecture.md, checked on the sources: a layer imports only the layers its
 * row allows, and the client stays free of Node built-ins so that browsers can load it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../src/contract/paths.js';
import { importCycles } from './support/import-cycles.js';

const src = join(packageRoot, 'src');

/** Keep in step with the table in docs/architecture.md. */
const allowed: Record<string, string[]> = {
  generated: [],
  contract: [],
  // Escaping for the markup the kit writes: a leaf every layer but the client may use.
  markup: [],
  // Only the event-stream reader of src/contract (sse.ts, free of Node built-ins; checked below).
  client: ['generated', 'contract'],
  bundle: ['contract'],
  lint: ['contract'],
  cli: ['bundle', 'lint', 'contract', 'docs', 'fuzz', 'mock', 'conformance', 'server', 'webhook-tools'],
  docs: ['contract', 'bundle'],
  webhooks: ['contract', 'generated'],
  board: ['contract', 'generated'],
  // The developer tools for receivers report through the suite's registry style and reporters.
  'webhook-tools': ['contract', 'generated', 'webhooks', 'conformance'],
  fuzz: ['contract'],
  mock: ['contract', 'markup'],
  // Only server.ts, and only when asked for: the test-only control plane and the client controls (checked below).
  server: ['contract', 'generated', 'markup', 'board', 'webhooks', 'test-control', 'client-controls'],
  // What every control plane shares: routes outside the contract, JSON edits.
  'control-plane': ['server'],
  // The test-only control plane of `--test-control`: the clock, keys and the conformance fault switches.
  'test-control': ['control-plane', 'server', 'contract', 'generated', 'webhooks'],
  // The controls for client teams of `--client-controls`: journal, queued faults, session states; apart
  // from the conformance fault switches.
  'client-controls': ['control-plane', 'server', 'board'],
  // The kit inside a test suite: it starts the server and the mock and runs the suites, loading each on use.
  testing: ['contract', 'generated', 'webhooks', 'server', 'mock', 'conformance', 'webhook-tools'],
  index: ['client', 'contract', 'generated', 'webhooks', 'testing'],
  // The suite tests any implementation over HTTP: it never imports the reference server.
  conformance: ['contract', 'generated', 'markup', 'webhooks'],
};

const conformance = join(packageRoot, 'conformance');

/**
 * The layer of a file: under src/ its top folder, or its name for a top-level module; anything under
 * conformance/ is the conformance layer.
 */
function layerOf(file: string): string {
  if (!relative(conformance, file).startsWith('..')) {
    return 'conformance';
  }
  const [top = ''] = relative(src, file).split(sep);
  return top.replace(/\.[jt]s$/, '');
}

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Static and dynamic import specifiers of a module. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom|\bimport\()\s*'([^']+)'/g)].map((match) => match[1] ?? '');
}

/** What a module imports: a module of src/ by its path there (`contract/sse.js`), a package by its name. */
function importTargets(file: string): string[] {
  return importsOf(file).map((specifier) =>
    specifier.startsWith('.')
      ? relative(src, resolve(dirname(file), specifier))
          .split(sep)
          .join('/')
      : specifier,
  );
}

const files = [...sources(src), ...sources(conformance)];

describe('layers', () => {
  test('every source file belongs to a known layer', () => {
    expect(files.map(layerOf).filter((layer) => !(layer in allowed))).toEqual([]);
  });

  test.each(files.map((file) => [relative(packageRoot, file), file] as const))('%s', (_, file) => {
    const layer = layerOf(file);
    const crossings = importsOf(file)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => layerOf(resolve(dirname(file), specifier)))
      .filter((target) => target !== layer && !(allowed[layer] ?? []).includes(target));
    expect(crossings).toEqual([]);
  });

  test('the conformance suite takes only signing from src/webhooks', () => {
    const webhookImports = sources(conformance)
      .flatMap((file) => importsOf(file).map((specifier) => resolve(dirname(file), specifier)))
      .filter((target) => layerOf(target) === 'webhooks')
      .map((target) => relative(join(src, 'webhooks'), target));
    expect([...new Set(webhookImports)].sort()).toEqual(['headers.js', 'signing.js']);
  });

  test.each(['test-control', 'client-controls'])('only the server start plugs in the %s plane', (plane) => {
    const planeDir = join(src, plane);
    const inside = (file: string): boolean => !relative(planeDir, file).startsWith('..');
    const importers = files
      .filter((file) => !inside(file))
      .filter((file) =>
        importsOf(file).some((specifier) => specifier.startsWith('.') && inside(resolve(dirname(file), specifier))),
      )
      .map((file) => relative(src, file).split(sep).join('/'));
    expect(importers).toEqual(['server/server.ts']);
    // Loaded on demand: a server started without the flag never loads its code.
    const text = readFileSync(join(src, 'server', 'server.ts'), 'utf8');
    expect(text.match(new RegExp(`^import (?!type )[^;]*'\\.\\./${plane}/`, 'gm')) ?? []).toEqual([]);
    expect(text).toContain(`await import('../${plane}/index.js')`);
  });

  test('the client imports nothing but openapi-fetch, the generated types and the event-stream reader', () => {
    const clientFiles = [join(src, 'client.ts'), ...sources(join(src, 'client'))];
    const imports = clientFiles.flatMap(importTargets);
    expect([...new Set(imports.filter((specifier) => !/^(client|generated\/)/.test(specifier)))].sort()).toEqual([
      'contract/sse.js',
      'openapi-fetch',
    ]);
    expect(importsOf(join(src, 'contract', 'sse.ts'))).toEqual([]);
  });
});

describe('the library entry stays light', () => {
  test('src/testing reaches the server, the mock and the suites only through import()', () => {
    const heavy = new Set(['server', 'mock', 'conformance', 'webhook-tools']);
    const staticCrossings = sources(join(src, 'testing')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*?from\s*'([^']+)'/gm)]
        .map((match) => layerOf(resolve(dirname(file), match[1] ?? '')))
        .filter((layer) => heavy.has(layer))
        .map((layer) => `${relative(packageRoot, file)} → ${layer}`),
    );
    expect(staticCrossings).toEqual([]);
  });
});

/**
 * The reference server's inner layers, "never upward": `ports` (the interfaces every layer programs
 * against: `Services` and its parts, the store's tables and records, the handler map, the app's options;
 * types only, a leaf), `core` (the vocabulary: clock, ids, problems, cursors), `store` (SQLite), `domain`
 * (sessions, webhooks, credits, shares, MCP, provisioning), `http` (routes, validation, dispatch,
 * idempotency, streams, limits, auth); `server.ts` and `server-options.ts` compose them. Keep in step
 * with docs/architecture.md.
 */
const serverLayers: Record<string, string[]> = {
  ports: [],
  core: ['ports'],
  store: ['core', 'ports'],
  domain: ['core', 'store', 'ports'],
  http: ['core', 'store', 'domain', 'ports'],
  'server-options.ts': ['core', 'store', 'domain', 'http', 'ports'],
  'server.ts': ['core', 'store', 'domain', 'http', 'ports', 'server-options.ts'],
};

const serverRoot = join(src, 'server');
const serverLayerOf = (file: string): string => relative(serverRoot, file).split(sep)[0] ?? '';
const serverFiles = sources(serverRoot);
const portFiles = sources(join(serverRoot, 'ports'));

describe('server layers', () => {
  test('every server module belongs to a known layer', () => {
    expect(serverFiles.map(serverLayerOf).filter((layer) => !(layer in serverLayers))).toEqual([]);
  });

  test.each(serverFiles.map((file) => [relative(serverRoot, file), file] as const))('%s', (_, file) => {
    const layer = serverLayerOf(file);
    const crossings = importsOf(file)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolve(dirname(file), specifier))
      .filter((target) => !relative(serverRoot, target).startsWith('..'))
      .map((target) => serverLayerOf(target.replace(/\.js$/, '.ts')))
      .filter((target) => target !== layer && !(serverLayers[layer] ?? []).includes(target));
    expect(crossings).toEqual([]);
  });

  test('the ports are a leaf: nothing else of the server, type-only imports included, and only types', () => {
    const imported = portFiles.flatMap(importTargets);
    const outside = imported.filter((target) => !target.startsWith('server/ports/'));
    expect(outside.filter((target) => target.startsWith('server/'))).toEqual([]);
    // Beyond each other, the ports name only the layers below the server and the packages it is built on.
    expect(
      outside.filter(
        (target) => !/^(contract|generated|board|webhooks)\/|^(node:|fastify$|better-sqlite3$)/.test(target),
      ),
    ).toEqual([]);
    for (const file of portFiles) {
      const text = readFileSync(file, 'utf8');
      expect(text.match(/^import (?!type )/gm) ?? []).toEqual([]);
      expect(text).not.toMatch(/^export (?:function|const|class|enum|let|var)/m);
    }
  });
});

describe('import circles', () => {
  test('none in src/ or conformance/, type-only imports and re-exports included', () => {
    const circles = importCycles(files).map((circle) =>
      circle.map((file) => relative(packageRoot, file).split(sep).join('/')),
    );
    expect(circles).toEqual([]);
  });
});
