/**
 * report.html as a reader sees it: the report of a real run against the reference server, served from
 * 127.0.0.1 and opened in headless Chromium with every request off the machine aborted and counted. The
 * coverage section must show its counts, its gaps and the operations, a requirement link must lead to its
 * row, the status filter must work, and nothing may leave localhost. A screenshot is kept in docs/.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtInProfiles } from '../../conformance/harness/profiles.js';
import type { RunResult } from '../../conformance/harness/results.js';
import { runConformance } from '../../conformance/runner.js';
import { renderHtml } from '../../conformance/reporters/html.js';
import { packageRoot } from '../../src/contract/paths.js';
import { openOfflineBrowser, type OfflineBrowser } from '../docs/offline-browser.js';
import { keyA, keyB, startReferenceTarget } from './support/reference-target.js';

const screenshot = join(packageRoot, 'docs', 'conformance-report-screenshot.png');

let result: RunResult;
let server: Server;
let browser: OfflineBrowser;
let base: string;

beforeAll(async () => {
  const target = await startReferenceTarget();
  try {
    result = await runConformance({
      target: target.baseUrl,
      apiKey: keyA,
      apiKeyB: keyB,
      profile: builtInProfiles['reference']!,
      only: ['lifecycle', 'problems', 'webhooks'],
    });
  } finally {
    await target.close();
  }
  // The header's address, date and duration change with every run; fixed, the screenshot changes only
  // when the page does.
  const html = renderHtml({
    ...result,
    target: { ...result.target, baseUrl: 'http://127.0.0.1:8080' },
    startedAt: '2026-11-26T00:00:00.000Z',
    durationMs: 6_000,
  });
  server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await openOfflineBrowser({ width: 1280, height: 1100 });
  await browser.page.goto(base, { waitUntil: 'load' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('report.html in a browser', () => {
  test('shows the coverage counts, the gaps with their requirements, and the operations', async () => {
    const coverage = browser.page.locator('#coverage');
    await expect(coverage.isVisible()).resolves.toBe(true);
    const text = await coverage.innerText();
    const { operations } = result.coverage!.summary;
    expect(text).toContain('Coverage of the contract');
    expect(text).toContain(`${operations.seen}/${operations.documented}`);
    expect(text).toContain(`Gaps (${result.coverage!.gaps.length})`);
    const tied = result.coverage!.gaps.find((gap) => gap.requirements.length > 0)!;
    expect(text).toContain(tied.item);
    await browser.page.locator('#coverage summary', { hasText: 'Operations' }).click();
    await expect(
      browser.page.locator('#coverage code', { hasText: 'PATCH /v1/sessions/{id}' }).first().isVisible(),
    ).resolves.toBe(true);
  });

  test('a requirement link of the coverage leads to the requirement row', async () => {
    await browser.page.locator('#coverage a[href="#LIFE-013"]').first().click();
    expect(new URL(browser.page.url()).hash).toBe('#LIFE-013');
    await expect(browser.page.locator('tr#LIFE-013').isVisible()).resolves.toBe(true);
    await expect(browser.page.locator('tr#LIFE-013').innerText()).resolves.toContain(
      'PATCH /v1/sessions/{id} sets the title',
    );
  });

  test('the status filter hides the requirements of other statuses', async () => {
    await browser.page.locator('.filters button[data-status="fail"]').click();
    await expect(browser.page.locator('tr#LIFE-013').isVisible()).resolves.toBe(false);
    await browser.page.locator('.filters button[data-status="all"]').click();
    await expect(browser.page.locator('tr#LIFE-013').isVisible()).resolves.toBe(true);
  });

  test('loads nothing from off the machine', () => {
    expect(browser.remoteRequests).toEqual([]);
    expect(browser.localRequests).toEqual([base]);
  });

  test('reads well: the header, the counts and the coverage in one screen (screenshot kept in docs/)', async () => {
    await browser.page.goto(base, { waitUntil: 'load' });
    const image = await browser.page.screenshot({ animations: 'disabled', caret: 'hide' });
    const coverageBox = await browser.page.locator('#coverage table.coverage-counts').boundingBox();
    expect(coverageBox).not.toBeNull();
    expect(coverageBox!.y + coverageBox!.height).toBeLessThan(1100);
    if (!image.equals(await readFile(screenshot).catch(() => Buffer.alloc(0)))) {
      await writeFile(screenshot, image);
    }
  });
});
