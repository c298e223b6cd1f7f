/**
 * Self-verification, the good half: the whole suite against the reference server (`boardkit serve`'s
 * server, with its test-only control plane on, no fault switched on, and a second workspace) ends with
 * no MUST or SHOULD failure. The URL guard requirement runs against a server whose guard refuses
 * loopback too, every other requirement against one that delivers to the suite's receiver on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtInProfiles } from '../../conformance/harness/profiles.js';
import type { RunResult } from '../../conformance/harness/results.js';
import { runConformance } from '../../conformance/harness/runner.js';
import { requirements } from '../../conformance/requirements/index.js';
import { keyA, keyB, startReferenceTarget, type ReferenceTarget } from './support/reference-target.js';

const guardRequirement = 'HOOK-011';
const profile = { ...builtInProfiles['reference']!, includeOptIn: true };

function problems(result: RunResult): string[] {
  return result.requirements
    .filter((requirement) => requirement.level !== 'MAY' && requirement.status !== 'pass')
    .map((requirement) => `${requirement.id} ${requirement.status}: ${requirement.reason ?? requirement.observations[0]?.message ?? ''}`);
}

describe('the suite against the reference server', () => {
  let deliveringTarget: ReferenceTarget;
  let guardedTarget: ReferenceTarget;
  let main: RunResult;
  let guard: RunResult;

  beforeAll(async () => {
    [deliveringTarget, guardedTarget] = await Promise.all([startReferenceTarget(), startReferenceTarget({ allowLoopbackWebhookUrls: false })]);
    const everythingElse = requirements.map((requirement) => requirement.id).filter((id) => id !== guardRequirement);
    [main, guard] = await Promise.all([
      runConformance({ target: deliveringTarget.baseUrl, apiKey: keyA, apiKeyB: keyB, profile, only: everythingElse }),
      runConformance({ target: guardedTarget.baseUrl, apiKey: keyA, apiKeyB: keyB, profile, only: [guardRequirement] }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([deliveringTarget?.close(), guardedTarget?.close()]);
  });

  test('discovers the time control and the second workspace', () => {
    expect(main.target).toMatchObject({ live: true, testControl: true, clockControllable: true, secondKey: true });
  });

  test('no MUST or SHOULD requirement fails, errors or is skipped', () => {
    expect(problems(main)).toEqual([]);
    expect(problems(guard)).toEqual([]);
  });

  test('every requirement of the registry was judged', () => {
    const judged = [...main.requirements, ...guard.requirements].map((requirement) => requirement.id).sort();
    expect(judged).toEqual(requirements.map((requirement) => requirement.id).sort());
    expect(main.exitCode).toBe(0);
  });
});
