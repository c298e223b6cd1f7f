/**
 * Self-verification, the good half: the whole suite, the rate limits included, against the reference
 * server (`boardkit serve`'s server, with its test-only control plane on, no fault switched on, a second
 * workspace, and webhooks delivered to loopback, where the suite's receiver listens) ends with no MUST or
 * SHOULD failure. HOOK-011 (the URL guard) passes there too: its check names the receiver by 0.0.0.0,
 * which the guard refuses even where loopback is allowed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtInProfiles } from '../../conformance/harness/profiles.js';
import type { RunResult } from '../../conformance/harness/results.js';
import { runConformance } from '../../conformance/harness/runner.js';
import { requirements } from '../../conformance/requirements/index.js';
import { keyA, keyB, startReferenceTarget, type ReferenceTarget } from './support/reference-target.js';

/** The reference server's start variants per version (so VER-004 runs), with the rate-limit category. */
const profile = { ...builtInProfiles['reference']!, includeOptIn: true };

function problems(result: RunResult): string[] {
  return result.requirements
    .filter((requirement) => requirement.level !== 'MAY' && requirement.status !== 'pass')
    .map((requirement) => `${requirement.id} ${requirement.status}: ${requirement.reason ?? requirement.observations[0]?.message ?? ''}`);
}

describe('the suite against the reference server', () => {
  let target: ReferenceTarget;
  let result: RunResult;

  beforeAll(async () => {
    target = await startReferenceTarget();
    result = await runConformance({ target: target.baseUrl, apiKey: keyA, apiKeyB: keyB, profile });
  }, 120_000);

  afterAll(async () => {
    await target?.close();
  });

  test('discovers the time control and the second workspace', () => {
    expect(result.target).toMatchObject({ live: true, testControl: true, clockControllable: true, secondKey: true });
  });

  test('no MUST or SHOULD requirement fails, errors or is skipped', () => {
    expect(problems(result)).toEqual([]);
  });

  test('every requirement of the registry was judged', () => {
    expect(result.requirements.map((requirement) => requirement.id).sort()).toEqual(requirements.map((requirement) => requirement.id).sort());
    expect(result.requirements.map((requirement) => requirement.category)).toContain('rate-limits');
    expect(result.exitCode).toBe(0);
  });
});
