/**
 * The share page as the suite opens it: its address comes from the profile, a profile without one skips
 * the page checks with the reason, and the pages' answers (HTML, a 403 for a wrong password, a 410 for a
 * revoked link) are evidence only, never judged by the API sweeps.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtInProfiles } from '../../conformance/harness/profiles.js';
import { runConformance } from '../../conformance/harness/runner.js';
import { keyA, keyB, startReferenceTarget, type ReferenceTarget } from './support/reference-target.js';

const pageRequirements = ['SHARE-004', 'SHARE-005', 'SHARE-006', 'SHARE-008'];

describe('the share page', () => {
  let target: ReferenceTarget;

  beforeAll(async () => {
    target = await startReferenceTarget();
  });

  afterAll(async () => {
    await target?.close();
  });

  test('without sharePage in the profile, the page checks skip and say why', async () => {
    const result = await runConformance({ target: target.baseUrl, apiKey: keyA, apiKeyB: keyB, profile: builtInProfiles['default']!, only: pageRequirements });
    const judged = result.requirements.filter((requirement) => pageRequirements.includes(requirement.id));
    expect(judged.map((requirement) => [requirement.id, requirement.status])).toEqual(pageRequirements.map((id) => [id, 'skip']));
    expect(judged.every((requirement) => /sharePage/.test(requirement.reason ?? ''))).toBe(true);
  }, 60_000);

  test("with it, the pages are opened, and the API sweeps do not judge them", async () => {
    const result = await runConformance({ target: target.baseUrl, apiKey: keyA, apiKeyB: keyB, profile: builtInProfiles['reference']!, only: ['SHARE-005', 'SHARE-006', 'PROB-001', 'VER-001', 'CONT-002'] });
    const statuses = Object.fromEntries(result.requirements.map((requirement) => [requirement.id, requirement.status]));
    expect(statuses).toMatchObject({ 'SHARE-005': 'pass', 'SHARE-006': 'pass', 'PROB-001': 'pass', 'VER-001': 'pass', 'CONT-002': 'pass' });
    const pages = result.requirements.find((requirement) => requirement.id === 'SHARE-005')!.observations.flatMap((observation) => observation.evidence ?? []);
    expect(pages.map((page) => page.response?.status)).toEqual(expect.arrayContaining([200, 403]));
  }, 60_000);
});
