/**
 * `boardkit webhooks resend` as users run it: `boardkit serve` on a SQLite file forwards a delivery to a
 * receiver on 127.0.0.1; while it runs, `resend` sends that delivery again from the store, signed anew.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { createWebhookSecret } from '../../src/webhooks/ids.js';
import { verifyDelivery } from '../../src/webhooks/signing.js';
import { runBoardkit } from '../support/boardkit.js';
import { startCaptureReceiver, type Captured, type CaptureReceiver } from './capture-receiver.js';

const apiKey = 'sk_test_resend000000000000000001';
const forwardSecret = createWebhookSecret();
let scratch: string;
let db: string;
let receiver: CaptureReceiver;
let stopServe: () => void;
let first: Captured;

/** Starts `boardkit serve` and resolves with its base URL once it listens. */
function serve(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [join(packageRoot, 'bin', 'boardkit.js'), 'serve', '--port', '0', ...args]);
  stopServe = () => child.kill('SIGINT');
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /^ {2}(http:\/\/127\.0\.0\.1:\d+) /m.exec(output);
      if (match?.[1] !== undefined && output.includes('Ctrl-C')) {
        resolve(match[1]);
      }
    });
    child.on('close', (code) => reject(new Error(`serve exited with ${String(code)}: ${output}`)));
  });
}

function header(one: Captured, name: string): string {
  return String(one.headers[name]);
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'boardkit-resend-'));
  db = join(scratch, 'board.db');
  receiver = await startCaptureReceiver();
  const baseUrl = await serve([
    '--db',
    db,
    '--api-key',
    apiKey,
    '--webhook-envelope',
    'published',
    '--forward-webhooks',
    receiver.url,
    '--forward-secret',
    forwardSecret,
  ]);
  const started = await fetch(`${baseUrl}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'boardroom', title: 'Open a second office', synths: ['cfo', 'skeptic'], rounds: 1 }),
  });
  expect(started.status).toBe(202);
  first = await receiver.nth(1);
});

afterAll(async () => {
  stopServe();
  await receiver.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('resend', () => {
  test('sends a delivery of serve again: the same id and body, the next attempt, signed anew with its secret', async () => {
    const id = header(first, 'x-service-delivery-id');
    const count = receiver.received.length;
    const run = await runBoardkit(['webhooks', 'resend', id, '--db', db]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`→ POST ${receiver.url}`);
    const again = receiver.received.slice(count).find((one) => header(one, 'x-service-delivery-id') === id);
    expect(again).toBeDefined();
    expect(verifyDelivery({ secret: forwardSecret, rawBody: again!.body, headers: again!.headers })).toEqual({
      ok: true,
    });
    expect(header(again!, 'x-service-event')).toBe(header(first, 'x-service-event'));
    expect(Number(header(again!, 'x-service-timestamp'))).toBeGreaterThanOrEqual(
      Number(header(first, 'x-service-timestamp')),
    );
    const before = JSON.parse(first.body.toString('utf8')) as Record<string, unknown>;
    const after = JSON.parse(again!.body.toString('utf8')) as Record<string, unknown>;
    expect(after).toEqual({ ...before, delivery_attempt: 2 });
  });

  test('--new-id, --url and --secret send it as a new delivery elsewhere', async () => {
    const other = await startCaptureReceiver();
    const secret = createWebhookSecret();
    const id = header(first, 'x-service-delivery-id');
    const run = await runBoardkit([
      'webhooks',
      'resend',
      id,
      '--db',
      db,
      '--new-id',
      '--url',
      other.url,
      '--secret',
      secret,
    ]);
    expect(run.code).toBe(0);
    const one = await other.nth(1);
    await other.close();
    expect(header(one, 'x-service-delivery-id')).not.toBe(id);
    expect(verifyDelivery({ secret, rawBody: one.body, headers: one.headers })).toEqual({ ok: true });
    expect(JSON.parse(one.body.toString('utf8'))).toMatchObject({ delivery_attempt: 1 });
  });

  test('an unknown delivery, a missing store or a remote URL sends nothing and exits 2', async () => {
    const unknown = await runBoardkit(['webhooks', 'resend', 'dlv_nosuchdelivery0000000000', '--db', db]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('holds no delivery dlv_nosuchdelivery0000000000');
    const missing = await runBoardkit(['webhooks', 'resend', 'dlv_x', '--db', join(scratch, 'none.db')]);
    expect(missing.code).toBe(2);
    const id = header(first, 'x-service-delivery-id');
    const remote = await runBoardkit(['webhooks', 'resend', id, '--db', db, '--url', 'http://192.0.2.1/hooks']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('not a loopback address');
  });
});
