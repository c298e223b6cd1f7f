/**
 * `boardkit mock --watch` as a designer meets it, on a temporary copy of the contract source: a change to
 * an example file is bundled and served on the same port, a change that breaks the contract is reported
 * and the last good contract keeps answering, and the fix is served again. Each step waits for the
 * watcher's outcome event, never for a fixed time.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundleDocument } from '../../src/bundle/index.js';
import { watchContract, type BuildOutcome, type ContractWatch } from '../../src/cli/watch.js';
import type { OpenApiDocument } from '../../src/contract/load.js';
import { startMock, type RunningMock } from '../../src/mock/mock.js';
import { freePort } from '../../src/mock/prism.js';
import { bearer } from './requests.js';
import { copyContractSource } from '../support/contract-copy.js';

let folder: string;
let root: string;
let example: string;
let mock: RunningMock;
let watcher: ContractWatch;
let printed = '';

beforeAll(async () => {
  folder = await copyContractSource('boardkit-watch-');
  root = join(folder, 'openapi', 'openapi.yaml');
  example = join(folder, 'openapi', 'components', 'examples', 'SessionRunning.yaml');
  const contract = (await bundleDocument(root)) as unknown as OpenApiDocument;
  mock = await startMock({ port: await freePort(), contract });
  watcher = watchContract({
    root,
    apply: (document) => mock.reload(document),
    print: (text) => (printed += text),
    lint: false,
  });
}, 120_000);

afterAll(async () => {
  watcher?.close();
  await mock?.stop();
  await rm(folder, { recursive: true, force: true });
});

/** Writes `text` to `file` and resolves with the outcome of the build that change leads to. */
function change(file: string, text: string): Promise<BuildOutcome> {
  const outcome = new Promise<BuildOutcome>((done) => watcher.events.once('outcome', done));
  return writeFile(file, text).then(() => outcome);
}

async function sessionTitle(): Promise<string> {
  const response = await fetch(`${mock.baseUrl}/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E`, {
    headers: { Authorization: bearer },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { title: string }).title;
}

describe('boardkit mock --watch', () => {
  test('serves an edit on the same port, keeps the last good contract when one breaks it, and serves the fix', async () => {
    const original = await readFile(example, 'utf8');
    expect(await sessionTitle()).toBe('EU launch of the Pro plan');
    const baseUrl = mock.baseUrl;

    const edited = original.replace('title: EU launch of the Pro plan', 'title: EU launch, edited');
    expect(await change(example, edited)).toMatchObject({ kind: 'applied' });
    expect(mock.baseUrl).toBe(baseUrl);
    expect(await sessionTitle()).toBe('EU launch, edited');

    const broken = await change(example, 'value:\n  id: [unclosed\n');
    expect(broken).toMatchObject({ kind: 'rejected', reason: 'bundle' });
    expect(printed).toContain('SessionRunning.yaml');
    expect(printed).toContain('keeping the last good version');
    expect(await sessionTitle()).toBe('EU launch, edited');

    expect(await change(example, original)).toMatchObject({ kind: 'applied' });
    expect(await sessionTitle()).toBe('EU launch of the Pro plan');
  }, 180_000);
});
