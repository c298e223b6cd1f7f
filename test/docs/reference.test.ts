/**
 * The API reference as a reader sees it: `buildReference` renders the contract with Redocly, the page is
 * served from 127.0.0.1 and opened in headless Chromium with every request off the machine aborted and
 * counted. It must render (the tags, every operation and webhook in the navigation, an operation, a
 * webhook and an event stream in full) and nothing may leave localhost. A screenshot is kept in docs/.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { listOperations } from '../../src/contract/operations.js';
import { packageRoot } from '../../src/contract/paths.js';
import { remoteAssets } from '../../src/docs/offline.js';
import { buildReference } from '../../src/docs/reference.js';
import { openOfflineBrowser, type OfflineBrowser } from './offline-browser.js';

const contract = loadContract();
const operations = listOperations(contract);
const screenshot = join(packageRoot, 'docs', 'reference-screenshot.png');

/** Serves the built page at `/` and nothing else. */
function serve(html: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method === 'GET' && (request.url === '/' || request.url === '/index.html')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let siteDir: string;
let html: string;
let server: Server;
let browser: OfflineBrowser;
let base: string;

beforeAll(async () => {
  siteDir = await mkdtemp(join(tmpdir(), 'boardkit-site-'));
  html = await readFile(await buildReference(siteDir), 'utf8');
  server = await serve(html);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await openOfflineBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await rm(siteDir, { recursive: true, force: true });
});

/** Opens a route of the reference (Redoc 3 routes by hash) and waits for its second-level heading. */
async function open(route: string, heading: string): Promise<string> {
  if (!browser.page.url().startsWith(base)) {
    await browser.page.goto(base, { waitUntil: 'load' });
  }
  await browser.page.evaluate(`location.hash = ${JSON.stringify(`#/${route}`)}`);
  // Anchored and case-sensitive: the landing page's "Consult sessions" must not pass for "Sessions".
  const startsWithHeading = new RegExp(`^${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  await browser.page.locator('h2').filter({ hasText: startsWithHeading }).first().waitFor({ timeout: 30_000 });
  return browser.page.locator('body').innerText();
}

/** A screenshot once two in a row are identical: Redoc keeps rendering (search index, lazy parts) after load. */
async function settledScreenshot(): Promise<Buffer> {
  const options = { animations: 'disabled', caret: 'hide' } as const;
  let previous = await browser.page.screenshot(options);
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const next = await browser.page.screenshot(options);
    if (next.equals(previous)) {
      return next;
    }
    previous = next;
  }
  throw new Error('the reference kept changing for 20 screenshots');
}

describe('the API reference', () => {
  test('is one file that names no remote asset and turns telemetry off', () => {
    expect(remoteAssets(html)).toEqual([]);
    expect(html).toContain('"disableTelemetry":true');
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/);
  });

  test('renders the contract offline: title, description and every tag', { timeout: 120_000 }, async () => {
    await browser.page.goto(base, { waitUntil: 'load' });
    const title = `${contract.info.title} (${contract.info.version})`;
    await browser.page.locator('h1').filter({ hasText: title }).first().waitFor({ timeout: 60_000 });
    const text = await browser.page.locator('body').innerText();
    expect(text).toContain('Runs are asynchronous');
    expect((contract.tags ?? []).map((tag) => tag.name).filter((name) => !text.includes(name))).toEqual([]);
  });

  test.each((contract.tags ?? []).map((tag) => [tag.name]))(
    'lists every operation and webhook tagged %s',
    { timeout: 60_000 },
    async (tag) => {
      const text = await open(tag.toLowerCase(), tag);
      const tagged = operations.filter((entry) => entry.operation.tags?.[0] === tag);
      expect(tagged.length).toBeGreaterThan(0);
      expect(tagged.map((entry) => entry.operation.summary ?? '').filter((summary) => !text.includes(summary))).toEqual(
        [],
      );
    },
  );

  test('shows an event stream with its events', { timeout: 60_000 }, async () => {
    const text = await open('streams/streamsessionevents', 'Stream session events');
    for (const expected of ['text/event-stream', 'synth.message', 'round.complete', 'SynthMessageEvent']) {
      expect(text).toContain(expected);
    }
  });

  test('shows a webhook with its signature header and payload', { timeout: 60_000 }, async () => {
    const webhook = operations.find((entry) => entry.source === 'webhooks' && entry.path === 'session.complete');
    const summary = webhook?.operation.summary ?? 'session.complete';
    const text = await open('webhooks/onsessioncomplete', summary);
    for (const expected of ['X-Service-Signature', 'X-Service-Timestamp', 'credits_charged']) {
      expect(text).toContain(expected);
    }
    const image = await settledScreenshot();
    // Rewritten only when the picture changed, so a test run leaves the committed file alone.
    if (!image.equals(await readFile(screenshot).catch(() => Buffer.alloc(0)))) {
      await writeFile(screenshot, image);
    }
  });

  test('sent no request off the machine', () => {
    expect(browser.localRequests).toContain(base);
    expect(browser.remoteRequests).toEqual([]);
  });
});
