/**
 * The review of a contract change on copies of the bundled contract: every change listed with its class,
 * declarations, and the rules of the contract's `x-deprecation-policy` (a removal only after the notice
 * period, the headers of deprecated operations).
 */
import { describe, expect, test } from 'vitest';
import {
  changeClasses,
  otherRules,
  policyRules,
  noticePeriods,
  reviewContract,
  reviewFails,
  type ContractReview,
} from '../../src/docs/breaking/index.js';
import { periodEnd } from '../../src/docs/breaking/deprecation-policy.js';
import { deprecationPolicy } from '../../src/contract/extensions.js';
import {
  addOperation,
  asContract,
  bundledCopy,
  daysFromToday,
  deprecateMember,
  removeMember,
} from '../fixtures/contract-revisions.js';
import type { Editable } from '../fixtures/release-contract.js';

const review = (
  base: Editable,
  revision: Editable,
  declared: { rule: string; subject: string }[] = [],
): ContractReview => reviewContract(asContract(base), asContract(revision), { declared });

const rulesOf = (result: ContractReview): string[] => [...new Set(result.changes.map((change) => change.rule))].sort();

describe('every change, classed', () => {
  test('a removed property and an added operation are both listed, with their classes', () => {
    const result = review(bundledCopy(), addOperation(removeMember(bundledCopy())));
    const removed = result.changes.filter((change) => change.rule === 'property-removed');
    expect(removed.length).toBeGreaterThan(0);
    expect(removed.every((change) => change.class === 'breaking' && change.verdict === 'undeclared')).toBe(true);
    expect(removed.map((change) => change.operation)).toContain('GET /v1/sessions/{id}');
    expect(removed.find((change) => change.operation === 'GET /v1/sessions/{id}')).toMatchObject({
      where: 'response 200 application/json $.forked_from',
      component: 'Session',
      at: {
        base: '#/components/schemas/Session/properties/forked_from',
        revision: '#/components/schemas/Session/properties',
      },
    });
    expect(result.changes.filter((change) => change.rule === 'operation-added')).toEqual([
      expect.objectContaining({
        class: 'additive',
        operation: 'POST /v1/sessions/{id}/pin',
        at: { revision: '#/paths/~1v1~1sessions~1{id}~1pin/post' },
      }),
    ]);
    expect(rulesOf(result)).toEqual(['operation-added', 'property-removed']);
    expect(reviewFails(result)).toBe(true);
  });

  test('a contract against itself has no change', () => {
    expect(review(bundledCopy(), bundledCopy())).toEqual({ changes: [], violations: [] });
  });

  test('deprecations, additions and edits that break nothing are listed and pass', () => {
    const revision = bundledCopy();
    const schemas = revision['components']['schemas'];
    revision['paths']['/v1/sessions/{id}']['get']['deprecated'] = true;
    revision['paths']['/v1/sessions/{id}']['get']['description'] = 'Edited.';
    schemas['Session']['properties']['pinned'] = { type: 'boolean' };
    schemas['Session']['properties']['title']['deprecated'] = true;
    const result = review(bundledCopy(), revision);
    expect(rulesOf(result)).toEqual([
      'description-changed',
      'operation-deprecated',
      'property-added',
      'schema-deprecated',
    ]);
    const classOf = (rule: string): string | undefined => result.changes.find((change) => change.rule === rule)?.class;
    expect(classOf('operation-deprecated')).toBe('deprecated');
    expect(classOf('property-added')).toBe('additive');
    expect(classOf('description-changed')).toBe('non-breaking');
    // The contract has a policy, so a deprecation without its date says how to record it.
    expect(result.changes.find((change) => change.rule === 'operation-deprecated')?.message).toContain(
      'x-deprecated-since',
    );
    expect(reviewFails(result)).toBe(false);
  });

  test('a declared breaking change passes', () => {
    const result = review(bundledCopy(), removeMember(bundledCopy()), [
      { rule: 'property-removed', subject: 'Session' },
    ]);
    expect(new Set(result.changes.map((change) => change.verdict))).toEqual(new Set(['declared']));
    expect(reviewFails(result)).toBe(false);
  });

  test('every rule has a class the changelog lists', () => {
    expect(Object.values(otherRules).every((rule) => changeClasses.includes(rule.class))).toBe(true);
    expect(Object.keys(policyRules)).toEqual(['removed-before-deprecation-period', 'deprecation-header-missing']);
  });
});

describe('the deprecation policy', () => {
  test('is read from the contract: its longest notice is 6 months (overlap), the other 90 days', () => {
    const policy = deprecationPolicy(asContract(bundledCopy()));
    expect(policy?.headers).toEqual([]);
    expect(noticePeriods(policy!)).toEqual([
      { variant: 'overlap', amount: 6, unit: 'month' },
      { variant: 'notice', amount: 90, unit: 'day' },
    ]);
    expect(periodEnd(new Date('2026-08-31T00:00:00Z'), { amount: 6, unit: 'month' }).toISOString()).toBe(
      '2027-03-03T00:00:00.000Z',
    );
  });

  const removal = (since?: string): ContractReview =>
    review(deprecateMember(bundledCopy(), since), removeMember(bundledCopy()), [
      { rule: 'property-removed', subject: 'Session' },
    ]);

  test('a removal before the notice period fails, even when declared', () => {
    const result = removal(daysFromToday(-100));
    expect(result.violations.length).toBeGreaterThan(0);
    expect(result.violations[0]).toMatchObject({
      rule: 'removed-before-deprecation-period',
      where: expect.stringMatching(/\.forked_from$/) as unknown,
      message: expect.stringMatching(
        /^deprecated since \d{4}-\d{2}-\d{2}; .* lets it be removed from \d{4}-\d{2}-\d{2}$/,
      ) as unknown,
    });
    expect(reviewFails(result)).toBe(true);
  });

  test('a deprecation without its date cannot show the period passed', () => {
    const result = removal();
    expect(result.violations[0]?.message).toContain('without a valid `x-deprecated-since`');
    expect(reviewFails(result)).toBe(true);
  });

  test('a removal after the longest period is allowed without a declaration', () => {
    const result = review(deprecateMember(bundledCopy(), daysFromToday(-200)), removeMember(bundledCopy()));
    expect(result.violations).toEqual([]);
    expect(new Set(result.changes.map((change) => change.verdict))).toEqual(new Set(['after-deprecation-period']));
    expect(reviewFails(result)).toBe(false);
  });

  test('deprecated operations must declare the headers the policy names', () => {
    const revision = bundledCopy();
    revision['x-deprecation-policy']['headers'] = ['Deprecation', 'Sunset'];
    const operation = revision['paths']['/v1/sessions/{id}']['get'];
    operation['deprecated'] = true;
    const missing = review(bundledCopy(), revision).violations;
    expect(missing.map((found) => `${found.rule} ${found.operation} ${found.where}`)).toEqual([
      'deprecation-header-missing GET /v1/sessions/{id} response 200 header Deprecation',
      'deprecation-header-missing GET /v1/sessions/{id} response 200 header Sunset',
    ]);
    const headers = operation['responses']['200']['headers'] as Editable;
    headers['Deprecation'] = { schema: { type: 'string' } };
    headers['sunset'] = { schema: { type: 'string' } };
    expect(review(bundledCopy(), revision).violations).toEqual([]);
  });
});
