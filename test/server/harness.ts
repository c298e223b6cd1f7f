/**
 * Starts the reference server for a test: real HTTP on 127.0.0.1 (a free port), a real SQLite store,
 * response validation on, and a manual clock the test moves. Every response that broke the contract is
 * collected; `stop()` fails the test if there was one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock, type ManualClock } from '../../src/server/core/clock.js';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/server.js';

export interface TestServer {
  server: RunningServer;
  baseUrl: string;
  clock: ManualClock;
  /**
   * The server's wall clock (long-poll waits, signature timestamps), moved by hand too; it starts at the
   * real time, so receivers that check signature timestamps against their own clock accept them.
   */
  wallClock: ManualClock;
  /** A test key in its own workspace, and a second one in another workspace. */
  key: string;
  otherKey: string;
  dbFile: string;
  /** `fetch` relative to the base URL, with the first key unless `authorization` is given. */
  request(path: string, init?: RequestInit & { json?: unknown; key?: string | null }): Promise<Response>;
  /** Stops the server; throws if a response broke the contract. */
  stop(): Promise<void>;
}

export const testKey = 'sk_test_harness0000000000000001';
export const otherTestKey = 'sk_test_harness0000000000000002';

export async function startTestServer(
  options: Partial<ServerOptions> & { dbFile?: string; keepDb?: boolean } = {},
): Promise<TestServer> {
  const clock = (options.clock as ManualClock | undefined) ?? manualClock();
  const wallClock = (options.wallClock as ManualClock | undefined) ?? manualClock(Date.now());
  const folder = options.dbFile === undefined ? mkdtempSync(join(tmpdir(), 'boardkit-server-')) : undefined;
  const dbFile = options.dbFile ?? join(folder ?? '', 'board.db');
  const errors: unknown[] = [];
  const server = await startServer({
    apiKeys: [testKey, otherTestKey],
    allowPrivateWebhookUrls: true,
    ...options,
    db: dbFile,
    clock,
    wallClock,
    validateResponses: true,
    onError: (error) => errors.push(error),
  });
  return {
    server,
    baseUrl: server.baseUrl,
    clock,
    wallClock,
    key: testKey,
    otherKey: otherTestKey,
    dbFile,
    request(path, init = {}) {
      const { json, key, ...rest } = init;
      const headers = new Headers(rest.headers);
      const secret = key === undefined ? testKey : key;
      if (secret !== null && !headers.has('authorization')) {
        headers.set('authorization', `Bearer ${secret}`);
      }
      if (json !== undefined) {
        headers.set('content-type', 'application/json');
      }
      return fetch(`${server.baseUrl}${path}`, {
        ...rest,
        headers,
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
    },
    async stop() {
      await server.close();
      if (folder !== undefined && options.keepDb !== true) {
        rmSync(folder, { recursive: true, force: true });
      }
      if (errors.length > 0) {
        throw new Error(`the server met unexpected errors: ${errors.map(String).join('; ')}`);
      }
      if (server.violations.length > 0) {
        throw new Error(`responses broke the contract: ${JSON.stringify(server.violations, null, 2)}`);
      }
    },
  };
}

/** Simulated time long enough for any run of up to 10 rounds of 12 Synths to finish. */
export const aWholeRun = 30 * 60_000;

/** A lineup start (variant A) that the test can finish quickly: 2 Synths, `rounds` rounds. */
export function lineupStart(rounds = 1, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { mode: 'boardroom', title: 'Raise the Team plan price by 12%', synths: ['cfo', 'skeptic'], rounds, ...extra };
}

/** Starts a session and returns its id. */
export async function startSession(server: TestServer, body: Record<string, unknown> = lineupStart()): Promise<string> {
  const response = await server.request('/v1/sessions', { method: 'POST', json: body });
  const started = (await response.json()) as { id?: string; session_id?: string; detail?: string };
  const id = started.id ?? started.session_id;
  if (response.status !== 202 || id === undefined) {
    throw new Error(`start answered ${response.status}: ${JSON.stringify(started)}`);
  }
  return id;
}

export async function getJson<T = Record<string, unknown>>(server: TestServer, path: string, key?: string): Promise<T> {
  const response = await server.request(path, key === undefined ? {} : { key });
  if (!response.ok) {
    throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as T;
}

/**
 * Moves the clock in steps of `stepMs` until `done` holds (checked against the store, which the server
 * writes synchronously as timers fire), failing after `limitMs` of simulated time.
 */
export function advanceUntil(server: TestServer, done: () => boolean, stepMs = 500, limitMs = aWholeRun): void {
  for (let elapsed = 0; !done(); elapsed += stepMs) {
    if (elapsed > limitMs) {
      throw new Error(`the condition did not hold within ${limitMs} ms of simulated time`);
    }
    server.clock.advance(stepMs);
  }
}

/** The session as stored (for loop conditions; assertions go through HTTP). */
export function storedSession(server: TestServer, id: string) {
  const row = server.server.services.store.sessions.getAny(id);
  if (row === undefined) {
    throw new Error(`no session ${id}`);
  }
  return row.session;
}

/** Resolves once `condition` holds, checking after each turn of the event loop; fails after `limitMs`. */
export async function waitFor(condition: () => boolean, limitMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) {
      throw new Error(`the condition did not hold within ${limitMs} ms`);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Resolves once the server has put one more timer on its clock than `before` (a stream is waiting). */
export function waitForTimer(server: TestServer, before: number): Promise<void> {
  return waitFor(() => server.clock.pending() > before);
}

/** Resolves once the server has put one more timer on its wall clock than `before` (a long poll is waiting). */
export function waitForPoll(server: TestServer, before: number): Promise<void> {
  return waitFor(() => server.wallClock.pending() > before);
}

/**
 * Lets `ms` of server time pass in steps, waiting after each for the webhook deliveries it started: an
 * attempt takes real time, and its retry is due a wait after the attempt began, so moving the clock far
 * on meanwhile would make the retry due as soon as the attempt fails.
 */
export async function settle(server: TestServer, ms: number, stepMs = 10_000): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += stepMs) {
    server.clock.advance(Math.min(stepMs, ms - elapsed));
    await server.server.services.webhooks.dispatcher.idle();
  }
}
