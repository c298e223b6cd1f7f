/**
 * The review of a contract change: every change between two versions with its class, and, for each
 * breaking change to a guarded operation, whether it is declared in the changelog, allowed by the
 * deprecation policy, or neither; then the policy's own findings. The diff fails on a breaking change of
 * the last kind and on any policy violation (docs/versioning.md).
 * @module
 */
import { deprecatedSince, deprecationPolicy } from '../../contract/extensions.js';
import type { OpenApiDocument } from '../../contract/load.js';
import { valueAt } from '../../contract/pointer.js';
import { isDeclared, type Declaration } from './changelog.js';
import { reviewDeprecations, type PolicyViolation } from './deprecation-policy.js';
import { contractChanges } from './operations.js';
import { breakingRules, otherRules, type BreakingRule, type ContractChange } from './rules.js';

/** What a breaking change means for the review: only `undeclared` fails it. */
export type Verdict = 'undeclared' | 'declared' | 'after-deprecation-period' | 'outside-guard';

export interface ReviewedChange extends ContractChange {
  /** What the change means for clients. */
  message: string;
  /** Set on breaking changes only. */
  verdict?: Verdict;
}

export interface ContractReview {
  changes: ReviewedChange[];
  violations: PolicyViolation[];
}

export interface ReviewOptions {
  declared: readonly Declaration[];
  /** The day removals are checked on; today by default. */
  today?: Date;
}

function messageOf(change: ContractChange, revision: OpenApiDocument, policed: boolean): string {
  if (change.class === 'breaking') {
    return breakingRules[change.rule as BreakingRule];
  }
  const means = otherRules[change.rule as keyof typeof otherRules].means;
  if (change.class !== 'deprecated' || change.at.revision === undefined) {
    return means;
  }
  const node = valueAt(revision, change.at.revision);
  const since = typeof node === 'object' && node !== null ? deprecatedSince(node) : undefined;
  if (since !== undefined) {
    return `${means} (since ${since})`;
  }
  return policed ? `${means}; give it \`x-deprecated-since\` so that its removal can be checked` : means;
}

export function reviewContract(
  base: OpenApiDocument,
  revision: OpenApiDocument,
  options: ReviewOptions,
): ContractReview {
  const found = contractChanges(base, revision);
  const deprecations = reviewDeprecations(base, revision, found, options.today ?? new Date());
  const policed = deprecationPolicy(revision) !== undefined;
  const verdictOf = (change: ContractChange): Verdict | undefined => {
    if (change.class !== 'breaking') {
      return undefined;
    }
    if (!change.guarded) {
      return 'outside-guard';
    }
    if (deprecations.allowed.has(change)) {
      return 'after-deprecation-period';
    }
    return isDeclared(change, options.declared) ? 'declared' : 'undeclared';
  };
  const changes = found.map((change) => {
    const verdict = verdictOf(change);
    const message = messageOf(change, revision, policed);
    return verdict === undefined ? { ...change, message } : { ...change, message, verdict };
  });
  return { changes, violations: deprecations.violations };
}

/** Whether the review fails: an undeclared breaking change or a policy violation. */
export function reviewFails(review: ContractReview): boolean {
  return review.violations.length > 0 || review.changes.some((change) => change.verdict === 'undeclared');
}
