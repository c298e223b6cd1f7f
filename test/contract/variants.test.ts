/**
 * Each `oneOf` must be told apart by shape alone (openapi/README.md "Variants"):
 * 1. every branch is shown by at least one example;
 * 2. every example of a set matches exactly one branch;
 * 3. a body mixing an example of two branches (the union of their members) matches at most one branch,
 *    and none when both branches are closed: a client sending both shapes at once must not be guessed at.
 *    An open branch ("plus further fields", start response B) may legitimately accept the mix. The body
 *    is only mixed when each example brings a member the other branch does not declare; otherwise the
 *    union is a plain instance of one branch (e.g. SSE events that differ only by their `event` const).
 */
import { describe, expect, test } from 'vitest';
import { loadContract, type OpenApiDocument } from '../../src/contract/load.js';
import { createContractValidator } from '../../src/contract/validator.js';
import {
  declaredMembers,
  isClosed,
  listVariantSets,
  matchingBranches,
  type VariantSet,
} from '../../src/contract/variants.js';
import { miniContract } from '../fixtures/mini-contract.js';

type Body = Record<string, unknown>;

function isBody(value: unknown): value is Body {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

interface Report {
  uncovered: string[];
  ambiguous: string[];
  mixedAccepted: string[];
}

function check(document: OpenApiDocument, set: VariantSet): Report {
  const validator = createContractValidator(document);
  const byBranch = set.branches.map(() => [] as unknown[]);
  const ambiguous: string[] = [];
  for (const example of set.examples) {
    const matches = matchingBranches(validator, set, example.value);
    if (matches.length === 1 && matches[0] !== undefined) {
      byBranch[matches[0]]?.push(example.value);
    } else {
      ambiguous.push(`${example.location} matches ${matches.length} branches`);
    }
  }
  const uncovered = set.branches.filter((_, index) => byBranch[index]?.length === 0).map((branch) => branch.target);
  const mixedAccepted: string[] = [];
  set.branches.forEach((first, i) => {
    set.branches.forEach((second, j) => {
      const a = byBranch[i]?.find(isBody);
      const b = byBranch[j]?.find(isBody);
      if (j <= i || a === undefined || b === undefined) {
        return;
      }
      const foreignToSecond = Object.keys(a).filter((name) => !declaredMembers(document, second).has(name));
      const foreignToFirst = Object.keys(b).filter((name) => !declaredMembers(document, first).has(name));
      if (foreignToSecond.length === 0 || foreignToFirst.length === 0) {
        return;
      }
      const matches = matchingBranches(validator, set, { ...a, ...b });
      const allowed = isClosed(document, first) && isClosed(document, second) ? 0 : 1;
      if (matches.length > allowed) {
        const names = matches.map((index) => set.branches[index]?.target).join(', ');
        mixedAccepted.push(`${first.target} + ${second.target} is accepted by ${names}`);
      }
    });
  });
  return { uncovered, ambiguous, mixedAccepted };
}

const clean: Report = { uncovered: [], ambiguous: [], mixedAccepted: [] };

describe('variant checks', () => {
  test('pass on exclusive closed variants', () => {
    const document = miniContract();
    const sets = listVariantSets(document);
    expect(sets.map((set) => set.pointer)).toEqual(['#/components/schemas/Thing']);
    expect(sets[0]?.examples.map((example) => example.location)).toEqual(
      expect.arrayContaining([
        '#/paths/~1v1~1things~1{id}/get/responses/200/content/application~1json/examples/circle',
        '#/webhooks/thing.created/post/requestBody/content/application~1json/example',
        '#/components/schemas/Square/examples/0',
      ]),
    );
    expect(sets.map((set) => check(document, set))).toEqual([clean]);
  });

  test('catch branches told apart only by optional members', () => {
    const document = miniContract();
    const circle = document.components?.schemas?.['Circle'];
    const square = document.components?.schemas?.['Square'];
    if (circle === undefined || square === undefined) {
      throw new Error('fixture changed');
    }
    // Opening both branches and dropping `required` makes every object match both.
    for (const schema of [circle, square] as Body[]) {
      delete schema['additionalProperties'];
      delete schema['required'];
    }
    const [report] = listVariantSets(document).map((set) => check(document, set));
    expect(report?.ambiguous.length).toBeGreaterThan(0);
    expect(report?.uncovered).toEqual(['#/components/schemas/Square', '#/components/schemas/Circle']);
  });

  test('catch open branches that a mixed body satisfies both', () => {
    const document = miniContract();
    // Still told apart by `required`, but neither branch forbids the other's member.
    for (const name of ['Square', 'Circle']) {
      delete (document.components?.schemas?.[name] as Body)['additionalProperties'];
    }
    const [report] = listVariantSets(document).map((set) => check(document, set));
    expect(report).toEqual({
      ...clean,
      mixedAccepted: [
        '#/components/schemas/Square + #/components/schemas/Circle is accepted by ' +
          '#/components/schemas/Square, #/components/schemas/Circle',
      ],
    });
  });
});

describe('the contract', () => {
  const document = loadContract();
  const sets = listVariantSets(document);

  test('has variant sets', () => {
    expect(sets.length).toBeGreaterThan(0);
  });

  test.each(sets.map((set) => [set.pointer, set] as const))('%s', (_, set) => {
    expect(check(document, set)).toEqual(clean);
  });
});
