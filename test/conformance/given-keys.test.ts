/**
 * Key rotation and the legacy per-key webhook on a target without test control: keys the implementer
 * rotated beforehand (`--rotated-key`, `--expired-key`) and a key whose legacy URL they set to the suite's
 * receiver on a fixed port (`--legacy-webhook-key`, `--legacy-webhook-secret`, `--receiver-port`) stand in
 * for what the control plane would do. The reference server runs without `--test-control`; its keys are
 * rotated in its store, as a console would, one of them a day and more before.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtInProfiles } from '../../conformance/harness/profiles.js';
import type { RunResult } from '../../conformance/harness/results.js';
import { runConformance } from '../../conformance/runner.js';
import { provisionKey } from '../../src/server/domain/provisioning.js';
import { startServer, type RunningServer } from '../../src/server/server.js';

const keyA = 'sk_test_givenkeysworkspacea0001';
const legacyKey = 'sk_test_givenkeyslegacyhook001';
const legacySecret = `whsec_${'givenkeyslegacysecret'.padEnd(32, '0')}`;
const day = 24 * 60 * 60 * 1000;
let server: RunningServer;
let receiverPort: number;
let rotated: { old: string; fresh: string };
let expired: string;

const statuses = (result: RunResult): Record<string, string> =>
  Object.fromEntries(result.requirements.map((requirement) => [requirement.id, requirement.status]));

/** A port free now, for the receiver the legacy URL names before the run starts it. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  receiverPort = await freePort();
  server = await startServer({
    db: ':memory:',
    apiKeys: [keyA, legacyKey],
    timeScale: 250,
    allowLoopbackWebhookUrls: true,
    legacyWebhooks: [{ apiKey: legacyKey, url: `http://127.0.0.1:${receiverPort}/legacy`, secret: legacySecret }],
    onError: () => undefined,
  });
  const { store, versions, clock } = server.services;
  const keys = ['sk_test_givenkeysrotatedold0001', 'sk_test_givenkeysexpiredold0001'];
  keys.forEach((key) =>
    provisionKey(store, key, { tier: 'ultra', apiVersion: versions.current, now: clock.now() - 2 * day }),
  );
  rotated = { old: keys[0]!, fresh: store.apiKeys.rotate(keys[0]!, clock.now()).secret };
  store.apiKeys.rotate(keys[1]!, clock.now() - 25 * 60 * 60 * 1000);
  expired = keys[1]!;
});

afterAll(async () => {
  await server?.close();
});

describe('key rotation without test control', () => {
  test('passes with keys rotated beforehand, and fails a key past its grace that still works', async () => {
    const profile = { ...builtInProfiles['default']!, rotatedKey: rotated, expiredKey: expired };
    const given = await runConformance({ target: server.baseUrl, apiKey: keyA, profile, only: ['key-rotation'] });
    expect(statuses(given)).toEqual({ 'KROT-001': 'pass', 'KROT-002': 'pass', 'KROT-003': 'pass' });
    // A key still in its grace named as expired: the check can fail.
    const wrong = await runConformance({
      target: server.baseUrl,
      apiKey: keyA,
      profile: { ...profile, expiredKey: rotated.old },
      only: ['KROT-002'],
    });
    expect(statuses(wrong)).toEqual({ 'KROT-002': 'fail' });
  }, 60_000);

  test('skips without them, naming --rotated-key and --expired-key', async () => {
    const result = await runConformance({ target: server.baseUrl, apiKey: keyA, only: ['key-rotation'] });
    expect(statuses(result)).toEqual({ 'KROT-001': 'skip', 'KROT-002': 'skip', 'KROT-003': 'skip' });
    expect(result.requirements.map((requirement) => requirement.remedy).join(' ')).toMatch(
      /--rotated-key OLD=NEW.*--expired-key/,
    );
  }, 60_000);
});

describe('the legacy webhook without test control', () => {
  test('passes with a key whose legacy URL is the receiver on a fixed port', async () => {
    const result = await runConformance({
      target: server.baseUrl,
      apiKey: keyA,
      profile: { ...builtInProfiles['default']!, legacyWebhook: { key: legacyKey, secret: legacySecret } },
      receiverPort,
      only: ['legacy-webhook'],
    });
    expect(statuses(result)).toEqual({ 'LEG-001': 'pass', 'LEG-002': 'pass', 'LEG-003': 'pass' });
  }, 60_000);

  test('a wrong secret fails the signature', async () => {
    const result = await runConformance({
      target: server.baseUrl,
      apiKey: keyA,
      profile: { ...builtInProfiles['default']!, legacyWebhook: { key: legacyKey, secret: `${legacySecret}x` } },
      receiverPort,
      only: ['LEG-002'],
    });
    expect(statuses(result)).toEqual({ 'LEG-002': 'fail' });
  }, 60_000);
});
