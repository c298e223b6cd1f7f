/**
 * The tier and credit checks on a target without test control: keys of other tiers named by the profile
 * (`--tier-key TIER=KEY`) and a key of a workspace with little credit (`--low-credit-key`) stand in for
 * the keys the control plane would provision, and without them the checks skip and say what to supply. The reference server runs without `--test-control`; its
 * lower-tier workspaces are provisioned in its store, as a console would.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtInProfiles } from '../../conformance/harness/profiles.js';
import type { RunResult } from '../../conformance/harness/results.js';
import { runConformance } from '../../conformance/runner.js';
import { provisionKey } from '../../src/server/domain/provisioning.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { runBoardkit } from '../support/boardkit.js';

const keyA = 'sk_test_tierkeysworkspacea00001';
const proKey = 'sk_test_tierkeysprotier0000001';
const maxKey = 'sk_test_tierkeysmaxtier0000001';
const poorKey = 'sk_test_tierkeyslowcredit00001';
let server: RunningServer;

const statuses = (result: RunResult): Record<string, string> =>
  Object.fromEntries(result.requirements.map((requirement) => [requirement.id, requirement.status]));

beforeAll(async () => {
  server = await startServer({ db: ':memory:', apiKeys: [keyA], timeScale: 250, onError: () => undefined });
  const { store, versions, clock } = server.services;
  provisionKey(store, proKey, { tier: 'pro', apiVersion: versions.current, now: clock.now() });
  provisionKey(store, maxKey, { tier: 'max', apiVersion: versions.current, now: clock.now() });
  provisionKey(store, poorKey, { tier: 'ultra', apiVersion: versions.current, now: clock.now(), startingCredits: 1 });
});

afterAll(async () => {
  await server?.close();
});

describe('the tier checks without test control', () => {
  test('pass with keys of lower tiers named by the profile', async () => {
    const profile = { ...builtInProfiles['default']!, tierKeys: { pro: proKey, max: maxKey } };
    const result = await runConformance({ target: server.baseUrl, apiKey: keyA, profile, only: ['tiers'] });
    expect(statuses(result)).toEqual({ 'TIER-001': 'pass', 'TIER-002': 'pass', 'TIER-003': 'pass' });
  }, 60_000);

  test('skip without them, naming --tier-key', async () => {
    const result = await runConformance({ target: server.baseUrl, apiKey: keyA, only: ['TIER-001', 'TIER-002'] });
    expect(statuses(result)).toEqual({ 'TIER-001': 'skip', 'TIER-002': 'skip' });
    for (const requirement of result.requirements) {
      expect(requirement.reason ?? requirement.observations[0]?.message).toMatch(/--tier-key/);
    }
  }, 60_000);
});

describe('the insufficient-credit check without test control', () => {
  test('passes with a key of a workspace with little credit, and skips without one, naming --low-credit-key', async () => {
    const given = await runConformance({
      target: server.baseUrl,
      apiKey: keyA,
      profile: { ...builtInProfiles['default']!, lowCreditKey: poorKey },
      only: ['CRED-002'],
    });
    expect(statuses(given)).toEqual({ 'CRED-002': 'pass' });
    expect(JSON.stringify(given)).not.toContain(poorKey);
    const without = await runConformance({ target: server.baseUrl, apiKey: keyA, only: ['CRED-002'] });
    expect(statuses(without)).toEqual({ 'CRED-002': 'skip' });
    expect(without.requirements[0]?.remedy).toMatch(/--low-credit-key/);
  }, 60_000);
});

describe('boardkit conformance --tier-key', () => {
  test('takes TIER=KEY and runs the tier checks with it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'boardkit-tier-keys-'));
    try {
      const run = await runBoardkit([
        'conformance',
        '--target',
        server.baseUrl,
        '--api-key',
        keyA,
        '--tier-key',
        `pro=${proKey}`,
        '--only',
        'TIER-001',
        '--report-dir',
        dir,
      ]);
      expect(run.code).toBe(0);
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunResult;
      expect(statuses(report)).toEqual({ 'TIER-001': 'pass' });
      expect(JSON.stringify(report)).not.toContain(proKey);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('refuses a value that is not TIER=KEY with exit code 2', async () => {
    const run = await runBoardkit(['conformance', '--target', server.baseUrl, '--api-key', keyA, '--tier-key', 'pro']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--tier-key takes TIER=KEY/);
  });
});
