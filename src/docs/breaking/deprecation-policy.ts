/**
 * The deprecation rules of the contract's `x-deprecation-policy` (seed "Versioning" 2): a deprecated
 * operation or member may be removed only once it has been deprecated for the policy's notice period, and
 * a deprecated operation declares the headers the policy says the service sends on it.
 *
 * The policy's notice variants state their periods in words ("at least 6 months", "a 90-day deprecation
 * notice"); a removal has to satisfy every variant, so the longest one counts. When the deprecation
 * started is not in OpenAPI: the designed extension `x-deprecated-since` (a `YYYY-MM-DD` date, beside
 * `deprecated: true` on an operation, parameter, header or schema) records the day it was announced.
 * The designed policy member `headers` lists the headers a deprecated operation's answers carry
 * (`Deprecation`, RFC 9745; `Sunset`, RFC 8594); the seed names none, so the contract sets none yet.
 * @module
 */
import { deprecatedSince, deprecationPolicy, type DeprecationPolicy } from '../../contract/extensions.js';
import type { OpenApiDocument } from '../../contract/load.js';
import { listOperations } from '../../contract/operations.js';
import { childPointer, resolve, valueAt } from '../../contract/pointer.js';
import { operationLabel } from '../labels.js';
import type { ChangePlace, ContractChange, PolicyRule } from './rules.js';

type Node = Record<string, unknown>;

export interface NoticePeriod {
  /** The policy variant that states it (`overlap`, `notice`). */
  variant: string;
  amount: number;
  unit: 'day' | 'week' | 'month' | 'year';
}

/** The periods of a policy and the headers its deprecated operations must declare. */
interface PolicyTerms {
  periods: NoticePeriod[];
  headers: string[];
}

export interface PolicyViolation {
  rule: PolicyRule;
  operation: string;
  where: string;
  message: string;
  at: ChangePlace;
}

const record = (value: unknown): Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : {};

/** The first period a sentence states: `6 months`, `90-day`. */
function periodIn(text: string): Omit<NoticePeriod, 'variant'> | undefined {
  const match = /(\d+)[\s-](day|week|month|year)s?\b/i.exec(text);
  return match === null
    ? undefined
    : { amount: Number(match[1]), unit: (match[2] ?? 'day').toLowerCase() as NoticePeriod['unit'] };
}

/** The periods the policy's notice variants state; a variant that states none is left out. */
export function noticePeriods(policy: DeprecationPolicy): NoticePeriod[] {
  return policy.notice.flatMap(({ variant, text }) => {
    const period = periodIn(text);
    return period === undefined ? [] : [{ variant, ...period }];
  });
}

/** The day a period starting on `since` ends (calendar months and years, in UTC). */
export function periodEnd(since: Date, period: Omit<NoticePeriod, 'variant'>): Date {
  const end = new Date(since);
  if (period.unit === 'day' || period.unit === 'week') {
    end.setUTCDate(end.getUTCDate() + period.amount * (period.unit === 'week' ? 7 : 1));
  } else {
    end.setUTCMonth(end.getUTCMonth() + period.amount * (period.unit === 'year' ? 12 : 1));
  }
  return end;
}

const day = (date: Date): string => date.toISOString().slice(0, 10);
const describe = (period: NoticePeriod): string => `${period.variant}: ${period.amount} ${period.unit}s`;

/** The removals the policy governs, and the node of the base that was deprecated or not. */
const removals = new Set(['operation-removed', 'parameter-removed', 'property-removed', 'response-header-removed']);

function deprecatedNode(base: OpenApiDocument, pointer: string): Node | undefined {
  const own = record(valueAt(base, pointer));
  const node = own['deprecated'] === true ? own : record(resolve(base, pointer).node);
  return node['deprecated'] === true ? node : undefined;
}

/** Why removing a node deprecated as `node` is too early on `today`, or `undefined` when it may go. */
function tooEarly(policy: PolicyTerms, node: Node, today: Date): string | undefined {
  const since = deprecatedSince(node);
  const periods = policy.periods.map(describe).join(', ');
  if (since === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(since) || Number.isNaN(Date.parse(since))) {
    return `deprecated without a valid \`x-deprecated-since\` date, so its notice period (${periods}) cannot be shown to have passed`;
  }
  const ends = policy.periods.map((period) => periodEnd(new Date(`${since}T00:00:00Z`), period));
  const end = new Date(Math.max(Date.parse(`${since}T00:00:00Z`), ...ends.map((date) => date.getTime())));
  return day(end) > day(today)
    ? `deprecated since ${since}; the policy's notice (${periods}) lets it be removed from ${day(end)}`
    : undefined;
}

export interface DeprecationReview {
  violations: PolicyViolation[];
  /** The breaking removals the policy allows: deprecated for at least the notice period. */
  allowed: Set<ContractChange>;
}

/** Checks the removals among `changes` and the deprecated operations of the revision against the policy. */
export function reviewDeprecations(
  base: OpenApiDocument,
  head: OpenApiDocument,
  changes: readonly ContractChange[],
  today: Date,
): DeprecationReview {
  const review: DeprecationReview = { violations: [], allowed: new Set() };
  const read = deprecationPolicy(head) ?? deprecationPolicy(base);
  if (read === undefined) {
    return review;
  }
  const policy: PolicyTerms = { periods: noticePeriods(read), headers: read.headers };
  for (const change of changes) {
    const node =
      removals.has(change.rule) && change.at.base !== undefined ? deprecatedNode(base, change.at.base) : undefined;
    if (node === undefined) {
      continue;
    }
    const reason = tooEarly(policy, node, today);
    if (reason === undefined) {
      review.allowed.add(change);
    } else {
      const { operation, where, at } = change;
      review.violations.push({ rule: 'removed-before-deprecation-period', operation, where, message: reason, at });
    }
  }
  review.violations.push(...missingHeaders(head, policy.headers));
  return review;
}

/** The headers of `names` that a success response of a deprecated operation does not declare. */
function missingHeaders(head: OpenApiDocument, names: readonly string[]): PolicyViolation[] {
  const violations: PolicyViolation[] = [];
  for (const entry of listOperations(head)) {
    if (entry.source !== 'paths' || entry.operation.deprecated !== true) {
      continue;
    }
    for (const status of Object.keys(entry.operation.responses ?? {}).filter((code) => code.startsWith('2'))) {
      const response = resolve<Node>(head, childPointer(entry.pointer, 'responses', status));
      const declared = new Set(Object.keys(record(response.node['headers'])).map((name) => name.toLowerCase()));
      for (const name of names.filter((header) => !declared.has(header.toLowerCase()))) {
        violations.push({
          rule: 'deprecation-header-missing',
          operation: operationLabel(entry),
          where: `response ${status} header ${name}`,
          message: `the policy says deprecated operations send \`${name}\`; response ${status} does not declare it`,
          at: { revision: response.pointer },
        });
      }
    }
  }
  return violations;
}
