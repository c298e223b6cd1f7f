/**
 * The suite against the Prism mock (`boardkit mock`): it runs the stateless categories and reports every
 * check that needs a live implementation as not applicable, without crashing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checks } from '../../conformance/checks/index.js';
import type { RunResult } from '../../conformance/harness/results.js';
import { runConformance } from '../../conformance/runner.js';
import { startMock, type RunningMock } from '../../src/mock/mock.js';
import { freePort } from '../../src/mock/prism.js';

let mock: RunningMock;
let result: RunResult;

/** Requirements every check of which needs a live implementation. */
const liveOnly = new Set(
  checks
    .flatMap((check) => check.requirements)
    .filter((id) =>
      checks.filter((check) => check.requirements.includes(id)).every((check) => check.preconditions.includes('live')),
    ),
);

beforeAll(async () => {
  mock = await startMock({ port: await freePort() });
  result = await runConformance({
    target: mock.baseUrl,
    apiKey: 'sk_test_mockworkspace00000001',
    apiKeyB: 'sk_test_mockworkspace00000002',
  });
}, 120_000);

afterAll(async () => {
  await mock?.stop();
});

describe('against the mock', () => {
  test('the target is recognised as a mock', () => {
    expect(result.target.live).toBe(false);
  });

  test('the stateless categories run and pass where the mock implements the contract', () => {
    const passing = [
      'AUTH-001',
      'AUTH-003',
      'AUTH-004',
      'AUTH-005',
      'AUTH-007',
      'PROB-004',
      'CONT-005',
      'PROB-006',
      'PROB-009',
      'PROB-013',
      'PAGE-006',
      'POLL-003',
      'LIFE-012',
      'VER-005',
    ];
    const statuses = Object.fromEntries(
      result.requirements
        .filter((requirement) => passing.includes(requirement.id))
        .map((requirement) => [requirement.id, requirement.status]),
    );
    expect(statuses).toEqual(Object.fromEntries(passing.map((id) => [id, 'pass'])));
  });

  test('every requirement that needs a live implementation is skipped as not applicable', () => {
    const notApplicable = result.requirements.filter((requirement) => liveOnly.has(requirement.id));
    expect(notApplicable.length).toBeGreaterThan(50);
    for (const requirement of notApplicable) {
      expect(requirement.status, requirement.id).toBe('skip');
      expect(requirement.reason, requirement.id).toMatch(/^not applicable: the target is a mock/);
    }
  });

  test('nothing errors: every requirement is judged or skipped with a reason', () => {
    expect(
      result.requirements.filter((requirement) => requirement.status === 'error').map((requirement) => requirement.id),
    ).toEqual([]);
    expect(
      result.requirements.filter((requirement) => requirement.status === 'skip' && requirement.reason === undefined),
    ).toEqual([]);
  });

  test('the contract sweep judged the mock’s responses', () => {
    const sweep = result.requirements.filter((requirement) =>
      ['CONT-001', 'CONT-003', 'CONT-004'].includes(requirement.id),
    );
    expect(sweep.map((requirement) => requirement.status)).toEqual(['pass', 'pass', 'pass']);
  });
});
