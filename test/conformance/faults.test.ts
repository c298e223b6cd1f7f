/**
 * Self-verification, the bad half: for each fault of the reference server's test-only fault switches
 * (src/test-control), switched on through the documented control plane, the server breaks one
 * rule and the suite must fail exactly the requirements the fault names. A check that no fault can make
 * fail would be a defect, so the catalogue must reach every check.
 */
import { describe, expect, test } from 'vitest';
import { checks } from '../../conformance/checks/index.js';
import { builtInProfiles } from '../../conformance/harness/profiles.js';
import { runConformance } from '../../conformance/runner.js';
import { TestControl } from '../../conformance/harness/test-control.js';
import { requirements } from '../../conformance/requirements/index.js';
import { faultCatalogue as faults } from '../../src/test-control/faults/index.js';
import { keyA, keyB, startReferenceTarget } from './support/reference-target.js';

/** AUTH-005 cannot be broken and still judged: a target refusing the key makes the suite exit 2 (cli.test.ts). */
const unbreakableByDesign = new Set(['AUTH-005']);
const profile = { ...builtInProfiles['reference']!, includeOptIn: true };

/** The ten faults the issue names (conformance self-verification). */
const namedInTheIssue = [
  'idempotency-ignore-key',
  'problem-as-json',
  'leak-other-workspace',
  'webhook-bad-signature',
  'webhook-stale-timestamp',
  'webhook-skip-retries',
  'sse-drop-on-resume',
  'omit-version-header',
  'page-repeat-item',
  'auth-accept-missing-token',
];

describe('the fault catalogue', () => {
  test('names the ten faults of the issue, each once', () => {
    const names = faults.map((fault) => fault.name);
    expect(namedInTheIssue.filter((name) => !names.includes(name))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  test('breaks every requirement of the registry, and only requirements of the registry', () => {
    const broken = new Set(faults.flatMap((fault) => fault.breaks));
    const unbroken = requirements
      .map((requirement) => requirement.id)
      .filter((id) => !broken.has(id) && !unbreakableByDesign.has(id));
    expect(unbroken).toEqual([]);
    const known = new Set(requirements.map((requirement) => requirement.id));
    expect([...broken].filter((id) => !known.has(id))).toEqual([]);
  });

  test('reaches every check', () => {
    const broken = new Set(faults.flatMap((fault) => fault.breaks));
    expect(
      checks.filter((check) => !check.requirements.some((id) => broken.has(id))).map((check) => check.name),
    ).toEqual([]);
  });
});

describe.concurrent('each fault fails the requirements it breaks', () => {
  test.each(faults.map((fault) => [fault.name, fault] as const))(
    '%s',
    async (_, fault) => {
      const target = await startReferenceTarget();
      try {
        // Switched on through the documented control plane, as any test-control target would offer it.
        await new TestControl(target.baseUrl, '/_test').setFaults([fault.name]);
        const result = await runConformance({
          target: target.baseUrl,
          apiKey: keyA,
          apiKeyB: keyB,
          profile,
          only: [...fault.breaks],
        });
        const statuses = Object.fromEntries(
          result.requirements
            .filter((requirement) => fault.breaks.includes(requirement.id))
            .map((requirement) => [requirement.id, requirement.status]),
        );
        expect(statuses).toEqual(Object.fromEntries(fault.breaks.map((id) => [id, 'fail'])));
      } finally {
        await target.close();
      }
    },
    90_000,
  );
});
