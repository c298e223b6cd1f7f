/**
 * Self-verification, the bad half: for each fault of the mutant proxy (conformance/mutants), the
 * reference server behind it breaks one rule, and the suite must fail exactly the requirements the fault
 * names. A check that no fault can make fail would be a defect, so the catalogue must reach every check.
 */
import { describe, expect, test } from 'vitest';
import { checks } from '../../conformance/checks/index.js';
import { builtInProfiles } from '../../conformance/harness/profiles.js';
import { runConformance } from '../../conformance/harness/runner.js';
import { TestControl } from '../../conformance/harness/test-control.js';
import { requirements } from '../../conformance/requirements/index.js';
import { faults, namedInTheIssue } from '../../conformance/mutants/index.js';
import { keyA, keyB, startReferenceTarget } from './support/reference-target.js';

/** AUTH-005 cannot be broken and still judged: a target refusing the key makes the suite exit 2 (cli.test.ts). */
const unbreakableByDesign = new Set(['AUTH-005']);
const profile = { ...builtInProfiles['reference']!, includeOptIn: true };

describe('the fault catalogue', () => {
  test('names the ten faults of the issue', () => {
    const names = new Set(faults.map((fault) => fault.name));
    expect(namedInTheIssue.filter((name) => !names.has(name))).toEqual([]);
  });

  test('breaks every requirement of the registry', () => {
    const broken = new Set(faults.flatMap((fault) => fault.breaks));
    const unbroken = requirements.map((requirement) => requirement.id).filter((id) => !broken.has(id) && !unbreakableByDesign.has(id));
    expect(unbroken).toEqual([]);
  });

  test('reaches every check', () => {
    const broken = new Set(faults.flatMap((fault) => fault.breaks));
    expect(checks.filter((check) => !check.requirements.some((id) => broken.has(id))).map((check) => check.name)).toEqual([]);
  });
});

describe.concurrent('each fault fails the requirements it breaks', () => {
  test.each(faults.map((fault) => [fault.name, fault] as const))('%s', async (_, fault) => {
    const target = await startReferenceTarget({ allowPrivateWebhookUrls: !fault.breaks.includes('HOOK-011') });
    try {
      // Switched on through the documented control plane, as any test-control target would offer it.
      await new TestControl(target.baseUrl, '/_test').setFaults([fault.name]);
      const result = await runConformance({ target: target.baseUrl, apiKey: keyA, apiKeyB: keyB, profile, only: [...fault.breaks] });
      const statuses = Object.fromEntries(result.requirements.filter((requirement) => fault.breaks.includes(requirement.id)).map((requirement) => [requirement.id, requirement.status]));
      expect(statuses).toEqual(Object.fromEntries(fault.breaks.map((id) => [id, 'fail'])));
    } finally {
      await target.close();
    }
  }, 90_000);
});
