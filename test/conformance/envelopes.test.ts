/**
 * The suite and the two published webhook envelopes: under the default profile it accepts deliveries in
 * the seed's envelope and in the one of the service's current webhooks page; a profile that requires one
 * fails deliveries in the other (HOOK-006). The reference server sends either (`webhookEnvelope`), to the
 * suite's own receiver over real HTTP; retries of the published form (which count their attempt in
 * `delivery_attempt`) still count as the same delivery (HOOK-005, HOOK-013).
 */
import { describe, expect, test } from 'vitest';
import { defaultProfile, type Profile } from '../../conformance/harness/profiles.js';
import type { RunResult } from '../../conformance/harness/results.js';
import { runConformance } from '../../conformance/runner.js';
import { keyA, keyB, startReferenceTarget } from './support/reference-target.js';

const judged = ['HOOK-002', 'HOOK-003', 'HOOK-005', 'HOOK-006', 'HOOK-013'];

const requiring = (envelope: 'seed' | 'published'): Profile => ({
  ...defaultProfile,
  name: `${envelope}-envelope`,
  envelopes: [envelope],
});

function statuses(result: RunResult): Record<string, string> {
  return Object.fromEntries(
    result.requirements.filter((one) => judged.includes(one.id)).map((one) => [one.id, one.status]),
  );
}

/** A run of the judged requirements against a target of its own that delivers `envelope`. */
async function run(envelope: 'seed' | 'published', profile: Profile): Promise<RunResult> {
  const target = await startReferenceTarget({ webhookEnvelope: envelope });
  try {
    return await runConformance({ target: target.baseUrl, apiKey: keyA, apiKeyB: keyB, profile, only: judged });
  } finally {
    await target.close();
  }
}

// Each run mostly waits for its deliveries, and each has its own target: they run side by side.
describe.concurrent.each(['seed', 'published'] as const)('a target that delivers the %s envelope', (envelope) => {
  const other = envelope === 'seed' ? 'published' : 'seed';

  test('passes the webhook requirements under the default profile', async () => {
    const result = await run(envelope, defaultProfile);
    expect(statuses(result)).toEqual(Object.fromEntries(judged.map((id) => [id, 'pass'])));
  }, 120_000);

  test(`passes under a profile requiring the ${envelope} envelope`, async () => {
    expect(statuses(await run(envelope, requiring(envelope)))['HOOK-006']).toBe('pass');
  }, 120_000);

  test(`fails HOOK-006 under a profile requiring the ${other} envelope`, async () => {
    const result = await run(envelope, requiring(other));
    expect(statuses(result)['HOOK-006']).toBe('fail');
    const requirement = result.requirements.find((one) => one.id === 'HOOK-006');
    expect(JSON.stringify(requirement?.observations)).toContain(`the body is in the ${envelope} envelope`);
  }, 120_000);
});
