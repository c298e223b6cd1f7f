/**
 * The whole receivers of docs/webhooks.md, Node.js and Python, run as a reader would run them (each with
 * the page's verification function beside it), pass `boardkit webhooks check-receiver`; and the Node one
 * accepts every delivery that `boardkit serve --time-scale 1000 --forward-webhooks` sends it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { packageRoot } from '../../src/contract/paths.js';
import { startServer } from '../../src/server/server.js';
import { forwardTargetId } from '../../src/server/domain/forward-webhooks.js';
import { checkReceiver } from '../../src/webhook-tools/check-receiver.js';
import { waitFor } from '../server/harness.js';
import { createWebhookSecret } from '../../src/webhooks/ids.js';
import { strictDiagnostics, writeModule } from '../support/snippet-program.js';

/** The code of the fenced block whose info string is exactly `info` (CommonMark §4.5). */
function snippet(markdown: string, info: string): string {
  const blocks = [...markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].filter((match) => match[1]?.trim() === info);
  if (blocks.length !== 1) {
    throw new Error(`docs/webhooks.md has ${blocks.length} blocks marked \`${info}\`, expected 1`);
  }
  return blocks[0]?.[2] ?? '';
}

interface Running {
  url: string;
  stop(): void;
}

/** Starts a receiver process and waits for the port it prints (`listening on N`). */
function startProcess(command: string, args: string[], cwd: string, secret: string): Promise<Running> {
  const env = { ...process.env, PORT: '0', WEBHOOK_SECRET: secret, WEBHOOK_PREVIOUS_SECRET: previousSecret };
  const child: ChildProcess = spawn(command, args, { cwd, env });
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const port = /listening on (\d+)/.exec(stdout)?.[1];
      if (port !== undefined) {
        resolve({ url: `http://127.0.0.1:${port}/hooks`, stop: () => child.kill() });
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${command} exited ${String(code)} before listening: ${stderr}`)));
  });
}

let markdown: string;
let scratch: string;
/** The secret each receiver still accepts while it moves to its own (RECV-014). */
const previousSecret = createWebhookSecret();
const running: Running[] = [];

beforeAll(async () => {
  markdown = await readFile(join(packageRoot, 'docs', 'webhooks.md'), 'utf8');
  scratch = await mkdtemp(join(tmpdir(), 'boardkit-receivers-'));
  await writeFile(join(scratch, 'package.json'), '{ "type": "module" }\n');
});

afterAll(async () => {
  running.forEach((one) => one.stop());
  await rm(scratch, { recursive: true, force: true });
});

async function failuresOf(receiver: Running, secret: string): Promise<string[]> {
  const result = await checkReceiver(loadContract(), { url: receiver.url, secret, previousSecret });
  return result.requirements
    .filter((one) => one.status !== 'pass')
    .map((one) => `${one.id} ${one.status}: ${one.observations[0]?.message ?? one.reason ?? ''}`);
}

describe('the Node.js receiver', () => {
  let receiver: Running;
  const secret = createWebhookSecret();

  beforeAll(async () => {
    const sources = { 'verify.ts': snippet(markdown, 'ts verify'), 'receiver.ts': snippet(markdown, 'ts receiver') };
    for (const [name, text] of Object.entries(sources)) {
      await writeFile(join(scratch, name), text);
    }
    expect(strictDiagnostics(join(scratch, 'receiver.ts'))).toEqual([]);
    for (const [name, text] of Object.entries(sources)) {
      await writeModule(join(scratch, name.replace(/\.ts$/, '.js')), text);
    }
    receiver = await startProcess(process.execPath, ['receiver.js'], scratch, secret);
    running.push(receiver);
  });

  test('passes check-receiver', async () => {
    expect(await failuresOf(receiver, secret)).toEqual([]);
  });

  test('accepts every delivery forwarded by the reference server at --time-scale 1000', async () => {
    const server = await startServer({
      db: ':memory:',
      apiKeys: ['sk_test_receiverdocs000000001'],
      timeScale: 1000,
      forwardWebhooks: { url: receiver.url, secret },
    });
    try {
      // Simulated time first runs past the replay window ahead of the wall clock.
      await waitFor(() => server.services.clock.now() - Date.now() > 301_000, 10_000);
      const response = await fetch(`${server.baseUrl}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_receiverdocs000000001', 'content-type': 'application/json' },
        body: JSON.stringify({
          mode: 'boardroom',
          title: 'Open a second office',
          synths: ['cfo', 'skeptic'],
          rounds: 1,
        }),
      });
      expect(response.status).toBe(202);
      const { outbox } = server.services.webhooks;
      const attempts = (): ReturnType<typeof outbox.listAttempts> => outbox.listAttempts(forwardTargetId);
      const answered = (event: string): boolean =>
        attempts().some(
          (attempt) => attempt.responseCode !== null && outbox.getDelivery(attempt.deliveryId)?.event === event,
        );
      await waitFor(() => answered('session.created') && answered('session.complete'), 30_000);
      expect(attempts().map((attempt) => attempt.responseCode)).toEqual(attempts().map(() => 204));
    } finally {
      await server.close();
    }
  });
});

describe('the Python receiver', () => {
  test('passes check-receiver', async () => {
    const secret = createWebhookSecret();
    await writeFile(join(scratch, 'verify.py'), snippet(markdown, 'python verify'));
    await writeFile(join(scratch, 'receiver.py'), snippet(markdown, 'python receiver'));
    const receiver = await startProcess('python3', ['receiver.py'], scratch, secret);
    running.push(receiver);
    expect(await failuresOf(receiver, secret)).toEqual([]);
  });
});
