/**
 * The kit inside a test suite (docs/testing.md), through the package's own entry point: the reference
 * server and the mock started in-process, the conformance and receiver suites run from code, nothing
 * written to disk, and every handle given back on close.
 */
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  checkReceiver,
  createBoardClient,
  runConformance,
  startMock,
  startServer,
  verifyDelivery,
} from '../../src/index.js';

const secret = 'whsec_library_test_secret';

/** The handles this process holds, by kind (timers, sockets, servers…). */
function handleCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) {
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

/** The kinds of which `after` holds more than `before` (a handle left behind). */
function grown(after: Map<string, number>, before: Map<string, number>): string[] {
  return [...after]
    .filter(([kind, count]) => count > (before.get(kind) ?? 0))
    .map(([kind, count]) => `${kind} ${count}`);
}

/** A receiver as docs/webhooks.md writes it; `broken` acknowledges what it should refuse. */
async function startReceiver(broken: boolean): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const verdict = verifyDelivery({ secret, rawBody: Buffer.concat(chunks), headers: request.headers });
      response.writeHead(verdict.ok || broken ? 204 : verdict.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('startServer', () => {
  test('provisions two workspaces on a free loopback port, and answers as the contract says', async () => {
    const server = await startServer();
    try {
      expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.baseUrl.endsWith(':0')).toBe(false);
      expect(server.apiKeys).toHaveLength(2);
      const [a, b] = server.apiKeys.map((apiKey) => createBoardClient({ baseUrl: server.baseUrl, apiKey }));
      const created = await a!.POST('/v1/webhooks', {
        body: { label: 'ci', url: 'http://127.0.0.1:9/hooks', events: ['session.complete'] },
      });
      expect(created.response.status).toBe(201);
      // The second key is another workspace: it does not see the first one's subscription.
      const seenByB = await b!.GET('/v1/webhooks');
      expect(seenByB.data?.items).toEqual([]);
      expect(server.violations()).toEqual([]);
    } finally {
      await server.close();
    }
    await server.close();
  });

  test('keeps its data in memory unless given a file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'boardkit-library-'));
    const cwd = process.cwd();
    process.chdir(folder);
    try {
      const inMemory = await startServer();
      await inMemory.close();
      expect(await readdir(folder)).toEqual([]);
      const onFile = await startServer({ db: join(folder, 'data.sqlite') });
      await onFile.close();
      expect(existsSync(join(folder, 'data.sqlite'))).toBe(true);
    } finally {
      process.chdir(cwd);
      await rm(folder, { recursive: true, force: true });
    }
  });

  test('twenty-five servers started and closed leave no handle behind', { timeout: 300_000 }, async () => {
    // The first start loads the contract and compiles its schemas once for the process.
    await (await startServer()).close();
    const before = handleCounts();
    // A handle kept by each start would show after one; enough rounds for one kept now and then to show too.
    for (let round = 0; round < 25; round++) {
      const server = await startServer();
      await server.close();
    }
    // A closed listener's handle is released by the event loop shortly after `close()` resolves.
    const deadline = Date.now() + 10_000;
    while (grown(handleCounts(), before).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(grown(handleCounts(), before)).toEqual([]);
  });
});

describe('runConformance', () => {
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    // The suite's clock-bound requirements need the control plane; time sped up keeps the run short.
    server = await startServer({ testControl: true, timeScale: 250 });
  });

  afterAll(async () => {
    await server.close();
  });

  test(
    'gives the reference server the conformant verdict, printing and writing nothing',
    { timeout: 600_000 },
    async () => {
      const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        const run = await runConformance({
          target: server.baseUrl,
          apiKey: server.apiKeys[0]!,
          apiKeyB: server.apiKeys[1]!,
          // Every category, the rate limits included: the default profile leaves those unchecked.
          profile: 'full',
        });
        expect(run.summary.verdict).toBe('conformant');
        expect(run.exitCode).toBe(0);
        expect(run.requirements.length).toBeGreaterThan(100);
        expect(run.reportFiles).toEqual([]);
        expect(stdout).not.toHaveBeenCalled();
        expect(stderr).not.toHaveBeenCalled();
      } finally {
        stdout.mockRestore();
        stderr.mockRestore();
      }
      expect(existsSync(join(process.cwd(), 'reports'))).toBe(false);
    },
  );

  test('writes the reports where it is told', { timeout: 120_000 }, async () => {
    const folder = await mkdtemp(join(tmpdir(), 'boardkit-library-reports-'));
    try {
      const run = await runConformance({
        target: server.baseUrl,
        apiKey: server.apiKeys[0]!,
        only: 'AUTH-001',
        reportDir: folder,
      });
      expect(run.requirements.map((requirement) => requirement.id)).toEqual(['AUTH-001']);
      expect((await readdir(folder)).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
      expect(run.reportFiles).toHaveLength(3);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  test('rejects a target that is not this API, with the likely fix', { timeout: 60_000 }, async () => {
    await expect(runConformance({ target: `${server.baseUrl}/v1`, apiKey: server.apiKeys[0]! })).rejects.toThrow(
      /base URL|\/v1/,
    );
  });
});

describe('startMock', () => {
  test('answers on a free port with the contract examples, and frees it on close', { timeout: 120_000 }, async () => {
    const mock = await startMock();
    expect(mock.baseUrl.endsWith(':0')).toBe(false);
    const health = await fetch(`${mock.baseUrl}/v1/health`);
    expect(health.status).toBe(200);
    await mock.close();
    await mock.close();
    await expect(fetch(`${mock.baseUrl}/v1/health`)).rejects.toThrow();
  });
});

describe('checkReceiver', () => {
  test('passes a receiver that verifies, and fails one that acknowledges forgeries', { timeout: 120_000 }, async () => {
    const good = await startReceiver(false);
    const broken = await startReceiver(true);
    try {
      const passed = await checkReceiver({ url: good.url, secret });
      expect(passed.summary.verdict).toBe('conformant');
      const failed = await checkReceiver({ url: broken.url, secret });
      expect(failed.summary.verdict).toBe('not conformant');
      expect(failed.exitCode).toBe(1);
    } finally {
      await good.close();
      await broken.close();
    }
  });
});
