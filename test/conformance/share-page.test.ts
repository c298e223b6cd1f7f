/**
 * The share page as the suite opens it: from the URL the API returns in `Share.url` in every profile
 * (its path on the target's host, where the reference server serves it), or where a profile says; the pages' answers (HTML, a 403 for a wrong password, a 410 for a
 * revoked link) are evidence only, never judged by the API sweeps.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtInProfiles } from '../../conformance/harness/profiles.js';
import { runConformance } from '../../conformance/runner.js';
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

  test('without sharePage in the profile, the pages open from Share.url and are judged', async () => {
    const result = await runConformance({
      target: target.baseUrl,
      apiKey: keyA,
      apiKeyB: keyB,
      profile: builtInProfiles['default']!,
      only: pageRequirements,
    });
    const judged = result.requirements.filter((requirement) => pageRequirements.includes(requirement.id));
    expect(judged.map((requirement) => [requirement.id, requirement.status])).toEqual(
      pageRequirements.map((id) => [id, 'pass']),
    );
  }, 60_000);

  test('a profile that names the wrong place fails the page checks: the place it names is the one opened', async () => {
    const profile = { ...builtInProfiles['default']!, sharePage: '/nowhere/{token}' };
    const result = await runConformance({
      target: target.baseUrl,
      apiKey: keyA,
      apiKeyB: keyB,
      profile,
      only: ['SHARE-004'],
    });
    expect(result.requirements.map((requirement) => [requirement.id, requirement.status])).toEqual([
      ['SHARE-004', 'fail'],
    ]);
  }, 60_000);

  test('with it, the pages are opened, and the API sweeps do not judge them', async () => {
    const result = await runConformance({
      target: target.baseUrl,
      apiKey: keyA,
      apiKeyB: keyB,
      profile: builtInProfiles['reference']!,
      only: ['SHARE-005', 'SHARE-006', 'PROB-001', 'VER-001', 'CONT-002'],
    });
    const statuses = Object.fromEntries(result.requirements.map((requirement) => [requirement.id, requirement.status]));
    expect(statuses).toMatchObject({
      'SHARE-005': 'pass',
      'SHARE-006': 'pass',
      'PROB-001': 'pass',
      'VER-001': 'pass',
      'CONT-002': 'pass',
    });
    const pages = result.requirements
      .find((requirement) => requirement.id === 'SHARE-005')!
      .observations.flatMap((observation) => observation.evidence ?? []);
    expect(pages.map((page) => page.response?.status)).toEqual(expect.arrayContaining([200, 403]));
  }, 60_000);
});
