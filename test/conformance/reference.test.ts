/**
 * Self-verification, the good half: the whole suite, the rate limits included, against the reference
 * server (`boardkit serve`'s server, with its test-only control plane on, no fault switched on, a second
 * workspace, and webhooks delivered to loopback, where the suite's receiver listens) ends with no MUST or
 * SHOULD failure. HOOK-011 (the URL guard) passes there too: its check names the receiver by 0.0.0.0,
 * which the guard refuses even where loopback is allowed. The coverage of that run shows every operation,
 * variant and event a requirement covers, produced by the checks of that requirement.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtInProfiles } from '../../conformance/harness/profiles.js';
import type { RunResult } from '../../conformance/harness/results.js';
import { runConformance } from '../../conformance/runner.js';
import { findCheck } from '../../conformance/checks/index.js';
import type { ItemCoverage } from '../../conformance/harness/coverage.js';
import { itemKinds, notExpectedInAConformingRun } from '../../conformance/requirements/coverage.js';
import { findRequirement, requirements } from '../../conformance/requirements/index.js';
import { keyA, keyB, startReferenceTarget, type ReferenceTarget } from './support/reference-target.js';

/** The reference server's start variants per version (so VER-004 runs), with the rate-limit category. */
const profile = { ...builtInProfiles['reference']!, includeOptIn: true };

function problems(result: RunResult): string[] {
  return result.requirements
    .filter((requirement) => requirement.level !== 'MAY' && requirement.status !== 'pass')
    .map(
      (requirement) =>
        `${requirement.id} ${requirement.status}: ${requirement.reason ?? requirement.observations[0]?.message ?? ''}`,
    );
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
    expect(result.requirements.map((requirement) => requirement.id).sort()).toEqual(
      requirements.map((requirement) => requirement.id).sort(),
    );
    expect(result.requirements.map((requirement) => requirement.category)).toContain('rate-limits');
    expect(result.exitCode).toBe(0);
  });

  test('the coverage shows every operation exercised and every item a requirement covers, with no gap', () => {
    const coveredGaps = result.coverage!.gaps.filter((gap) => gap.requirements.length > 0);
    expect(coveredGaps).toEqual([]);
    // Every operation of the contract answered a check with a success.
    expect(
      result.coverage!.operations.filter((operation) => !operation.exercised).map((operation) => operation.operationId),
    ).toEqual([]);
    expect(result.coverage!.summary.operations).toEqual({ documented: 46, seen: 46 });
  });

  test('each tie of the coverage map holds: a check of a named requirement produced the item', () => {
    /** The checks of the requirements a map entry names. */
    const checksOf = (ids: readonly string[]): Set<string> =>
      new Set(ids.flatMap((id) => findRequirement(id)?.checks ?? []).filter((name) => findCheck(name) !== undefined));
    const broken: string[] = [];
    for (const operation of result.coverage!.operations.filter((one) => one.requirements.length > 0)) {
      const own = checksOf(operation.requirements);
      if (!operation.checks.some((check) => own.has(check))) {
        broken.push(
          `operation ${operation.operationId}: ${operation.requirements.join(', ')} (called with a success by ${operation.checks.join(', ') || 'none'})`,
        );
      }
    }
    for (const kind of itemKinds) {
      const items: ItemCoverage[] = result.coverage![kind];
      for (const item of items.filter((one) => one.requirements.length > 0 && one.seen > 0)) {
        const own = checksOf(item.requirements);
        if (!item.checks.some((check) => own.has(check))) {
          broken.push(
            `${kind} ${item.name}: ${item.requirements.join(', ')} (seen by ${item.checks.join(', ') || 'none'})`,
          );
        }
      }
      const unseenButExpected = items.filter(
        (one) => one.requirements.length > 0 && one.seen === 0 && !notExpectedInAConformingRun[kind].includes(one.name),
      );
      broken.push(
        ...(kind === 'webhookEnvelopes' ? [] : unseenButExpected).map((one) => `${kind} ${one.name}: not seen`),
      );
    }
    expect(broken).toEqual([]);
  });
});
