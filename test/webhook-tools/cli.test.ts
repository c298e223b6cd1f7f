/**
 * `boardkit webhooks trigger | check-receiver | verify` as users run them, against receivers on
 * 127.0.0.1 written here; exit codes as `boardkit conformance` gives them.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { createContractValidator } from '../../src/contract/validator.js';
import { envelopeSchemaPointer, webhookEventNames, type WebhookEventName } from '../../src/webhooks/events.js';
import { createWebhookSecret } from '../../src/webhooks/ids.js';
import { signDelivery, verifyDelivery, verifyLegacyDelivery } from '../../src/webhooks/signing.js';
import { runBoardkit } from '../support/boardkit.js';
import { receiverBehaviours, startReceiver } from './receivers.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const secret = createWebhookSecret();
const received: Received[] = [];
let status = 200;
let url = '';
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push({ headers: request.headers, body: Buffer.concat(chunks) });
    response.writeHead(status, { 'content-type': 'application/json' }).end('{"received":true}');
  });
});
let scratch: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  scratch = await mkdtemp(join(tmpdir(), 'boardkit-receiver-'));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

function take(): Received[] {
  return received.splice(0, received.length);
}

describe('trigger', () => {
  test('--all delivers every event of the contract once, signed, each body valid for its webhook', async () => {
    status = 200;
    take();
    const run = await runBoardkit(['webhooks', 'trigger', '--all', '--url', url, '--secret', secret]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${webhookEventNames.length} sent, ${webhookEventNames.length} answered 2xx, 0 not.`);
    expect(run.stdout).toContain('{"received":true}');
    const deliveries = take();
    expect(deliveries.map((one) => one.headers['x-service-event']).sort()).toEqual([...webhookEventNames].sort());
    const validator = createContractValidator(loadContract());
    for (const one of deliveries) {
      expect(verifyDelivery({ secret, rawBody: one.body, headers: one.headers })).toEqual({ ok: true });
      expect(one.headers['user-agent']).toBe('Service-Webhooks/1.0');
      expect(one.headers['x-service-delivery-id']).toMatch(/^dlv_[A-Za-z0-9]{24}$/);
      const body: unknown = JSON.parse(one.body.toString('utf8'));
      const event = one.headers['x-service-event'] as WebhookEventName;
      expect(validator.validate(envelopeSchemaPointer(event), body).errors).toEqual([]);
    }
  });

  test('--envelope published sends the published form with the data of the contract or of --data', async () => {
    take();
    const run = await runBoardkit([
      'webhooks',
      'trigger',
      'session.cancelled',
      '--envelope',
      'published',
      '--url',
      url,
      '--secret',
      secret,
      '--data',
      join('test', 'webhook-tools', 'fixtures', 'cancelled-data.json'),
    ]);
    expect(run.code).toBe(0);
    const [one] = take();
    const body = JSON.parse(one?.body.toString('utf8') ?? '') as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'data', 'delivery_attempt', 'api_version']);
    expect(body).toMatchObject({ type: 'session.cancelled', delivery_attempt: 1, api_version: '2026-10-01' });
    expect(body['id']).toMatch(/^evt_/);
    expect(body['data']).toEqual(
      JSON.parse(await readFile(join('test', 'webhook-tools', 'fixtures', 'cancelled-data.json'), 'utf8')),
    );
  });

  test('--legacy sends the per-key form, and only for session.complete', async () => {
    take();
    const run = await runBoardkit([
      'webhooks',
      'trigger',
      'session.complete',
      '--legacy',
      '--url',
      url,
      '--secret',
      secret,
    ]);
    expect(run.code).toBe(0);
    const [one] = take();
    expect(one?.headers['x-mcp-event']).toBe('session.complete');
    expect(one?.headers['x-service-signature']).toBeUndefined();
    expect(verifyLegacyDelivery({ secret, rawBody: one?.body ?? '', headers: one?.headers ?? {} })).toEqual({
      ok: true,
    });
    const refused = await runBoardkit([
      'webhooks',
      'trigger',
      'share.created',
      '--legacy',
      '--url',
      url,
      '--secret',
      secret,
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('fires session.complete only');
    expect(take()).toEqual([]);
  });

  test('a receiver that does not answer 2xx gives exit code 1; unusable options give 2', async () => {
    status = 500;
    const failed = await runBoardkit(['webhooks', 'trigger', 'outcomes.ready', '--url', url, '--secret', secret]);
    status = 200;
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('← 500');
    const remote = await runBoardkit([
      'webhooks',
      'trigger',
      'outcomes.ready',
      '--url',
      'http://192.0.2.1/hooks',
      '--secret',
      secret,
    ]);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('not a loopback address');
    const unknown = await runBoardkit(['webhooks', 'trigger', 'session.exploded', '--url', url, '--secret', secret]);
    expect(unknown.code).toBe(2);
    const missing = await runBoardkit(['webhooks', 'trigger', 'outcomes.ready', '--url', url]);
    expect(missing.code).toBe(2);
    take();
  });
});

describe('check-receiver', () => {
  test('exit code 1 and the three reports for a receiver that accepts stale timestamps, 0 for a correct one', async () => {
    const stale = await startReceiver(receiverBehaviours.acceptsStaleTimestamps(secret));
    const reportDir = join(scratch, 'stale');
    const run = await runBoardkit([
      'webhooks',
      'check-receiver',
      '--url',
      stale.url,
      '--secret',
      secret,
      '--report-dir',
      reportDir,
    ]);
    await stale.close();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Verdict: not conformant (MUST requirements failed: RECV-004).');
    const junit = await readFile(join(reportDir, 'junit.xml'), 'utf8');
    expect(junit).toContain('<testsuite name="conformance.receiver" tests="14" failures="1"');
    expect(await readFile(join(reportDir, 'report.html'), 'utf8')).toContain('<h1>Webhook receiver conformance</h1>');
    const report = JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')) as {
      summary: { mustFailures: string[] };
    };
    expect(report.summary.mustFailures).toEqual(['RECV-004']);

    const correct = await startReceiver(receiverBehaviours.correct(secret));
    const passed = await runBoardkit([
      'webhooks',
      'check-receiver',
      '--url',
      correct.url,
      '--secret',
      secret,
      '--handled-url',
      correct.handledUrl,
      '--report-dir',
      join(scratch, 'correct'),
    ]);
    await correct.close();
    expect(passed.code).toBe(0);
  });

  test('exit code 2 when nothing answers', async () => {
    const gone = await startReceiver(receiverBehaviours.correct(secret));
    await gone.close();
    const run = await runBoardkit([
      'webhooks',
      'check-receiver',
      '--url',
      gone.url,
      '--secret',
      secret,
      '--report-dir',
      join(scratch, 'gone'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('did not answer');
  });
});

describe('verify', () => {
  const body =
    '{"event":"session.cancelled","data":{"session_id":"3f6c2a9e-8b1d-4c7e-a2f5-9d0b6e4c1a83","credits_charged":64,"credits_refunded":116}}';

  test('a captured delivery verifies; a changed body or a stale timestamp does not, and says why', async () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = signDelivery({ secret, timestamp, rawBody: body });
    const ok = await runBoardkit(
      ['webhooks', 'verify', '--secret', secret, '--timestamp', timestamp, '--signature', signature],
      {},
      body,
    );
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('ok: the signature verifies');
    const changed = await runBoardkit(
      ['webhooks', 'verify', '--secret', secret, '--timestamp', timestamp, '--signature', signature],
      {},
      `${body}\n`,
    );
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/^401: The X-Service-Signature does not match/);
    expect(changed.stdout).toContain(`expected: ${signDelivery({ secret, timestamp, rawBody: `${body}\n` })}`);
    const later = String(Number(timestamp) + 301);
    const stale = await runBoardkit(
      ['webhooks', 'verify', '--secret', secret, '--timestamp', timestamp, '--signature', signature, '--now', later],
      {},
      body,
    );
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('is 301 seconds from now');
    const missing = await runBoardkit(['webhooks', 'verify', '--secret', secret, '--timestamp', timestamp], {}, body);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/^400: /);
    const noSecret = await runBoardkit(['webhooks', 'verify', '--timestamp', timestamp], {}, body);
    expect(noSecret.code).toBe(2);
  });
});
