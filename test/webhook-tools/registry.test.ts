/**
 * The receiver registry and the cases of check-receiver reference each other both ways, in the style of
 * the implementation suite's registry.
 */
import { expect, test } from 'vitest';
import { categoryPrefixes, receiverCategory } from '../../conformance/requirements/types.js';
import { findRequirement } from '../../conformance/requirements/index.js';
import { findReceiverRequirement, receiverRequirements } from '../../conformance/requirements/receiver.js';
import { flipOneByte, receiverCases } from '../../src/webhook-tools/receiver-cases.js';

test('IDs are unique RECV-NNN, one sentence each, none shared with the implementation suite', () => {
  const ids = receiverRequirements.map((requirement) => requirement.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const requirement of receiverRequirements) {
    expect(requirement.category).toBe(receiverCategory);
    expect(requirement.id).toMatch(new RegExp(`^${categoryPrefixes[receiverCategory]}-\\d{3}$`));
    expect(requirement.statement).toMatch(/^[A-Z].*\.$/);
    expect(requirement.seed).toMatch(/^(Events ›|Legacy)/);
    expect(findRequirement(requirement.id)).toBeUndefined();
  }
});

test('every requirement names cases that exist and test it; every case tests a requirement that names it', () => {
  const names = receiverCases.map((one) => one.name);
  expect(new Set(names).size).toBe(names.length);
  for (const requirement of receiverRequirements) {
    expect(requirement.checks.length, requirement.id).toBeGreaterThan(0);
    for (const name of requirement.checks) {
      expect(receiverCases.find((one) => one.name === name)?.requirement, `${requirement.id} → ${name}`).toBe(
        requirement.id,
      );
    }
  }
  for (const one of receiverCases) {
    expect(findReceiverRequirement(one.requirement)?.checks, one.name).toContain(one.name);
  }
});

test('a flipped byte keeps the body valid JSON and changes exactly one byte', () => {
  const body = JSON.stringify({
    event: 'session.cancelled',
    data: { session_id: 'ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E', note: 'a "quoted" \\ value' },
  });
  const flipped = flipOneByte(body);
  expect(() => JSON.parse(flipped) as unknown).not.toThrow();
  expect(flipped).not.toBe(body);
  expect([...Buffer.from(body)].filter((byte, index) => Buffer.from(flipped)[index] !== byte)).toHaveLength(1);
});
