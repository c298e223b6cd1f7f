/**
 * Headless Chromium (Debian's `chromium` package, installed by `npm run setup`) driven by playwright-core,
 * with the network cut at the browser: every request to a host other than the local machine is counted
 * and aborted, so a page under test has to work offline and any attempt to leave shows up.
 */
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The Chromium binary on PATH (or in /usr/bin), or an error that says how to get one. */
export function findChromium(): string {
  const folders = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/bin'];
  for (const folder of folders) {
    for (const name of ['chromium', 'chromium-browser']) {
      try {
        accessSync(join(folder, name), constants.X_OK);
        return join(folder, name);
      } catch {
        // not in this folder
      }
    }
  }
  throw new Error('Chromium is not installed: run `npm run setup` (it installs the Debian package `chromium`)');
}

// Without the background-networking flags Chromium opens connections of its own (component updates,
// sync, QUIC probes) that a closed network refuses; they are not the page's and would only add noise.
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const localHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);
const localSchemes = new Set(['data:', 'blob:', 'about:']);

export function isLocal(url: string): boolean {
  const parsed = new URL(url);
  return localSchemes.has(parsed.protocol) || localHosts.has(parsed.hostname);
}

export interface OfflineBrowser {
  page: Page;
  context: BrowserContext;
  /** Every request the page tried to send off the machine (aborted). */
  remoteRequests: string[];
  /** Every request served locally. */
  localRequests: string[];
  close(): Promise<void>;
}

export async function openOfflineBrowser(viewport = { width: 1400, height: 1000 }): Promise<OfflineBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'boardkit-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium(),
    args: chromiumArgs,
    viewport,
  });
  const remoteRequests: string[] = [];
  const localRequests: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLocal(url)) {
      localRequests.push(url);
      await route.continue();
    } else {
      remoteRequests.push(url);
      await route.abort('internetdisconnected');
    }
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('websocket', (socket) => {
    if (!isLocal(socket.url())) {
      remoteRequests.push(socket.url());
    }
  });
  return {
    page,
    context,
    remoteRequests,
    localRequests,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
