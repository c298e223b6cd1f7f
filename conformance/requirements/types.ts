/**
 * The shape of a conformance requirement: one normative rule of the Decision-Board API, traced to the
 * seed section it comes from (after Kubernetes' conformance.yaml and h2spec's quoted requirements).
 * @module
 */

/** RFC 2119 levels. A failed MUST fails the run; SHOULD and MAY failures are reported, not fatal. */
export type Level = 'MUST' | 'SHOULD' | 'MAY';

/** The categories, in the order the suite runs and reports them. */
export const categories = [
  'contract',
  'problems',
  'auth',
  'versioning',
  'pagination',
  'idempotency',
  'long-poll',
  'sse',
  'lifecycle',
  'isolation',
  'webhooks',
  'plans',
  'messages',
  'decisions',
  'outcomes',
  'exports',
  'shares',
  'actions',
  'rate-limits',
  'credits',
  'key-rotation',
  'tiers',
  'summary-stream',
  'session-events',
  'consult',
  'synth-chat',
  'legacy-webhook',
  'delivery-retention',
] as const;

/**
 * The category of the receiver suite (`boardkit webhooks check-receiver`): its requirements test a
 * webhook receiver, not an implementation of the API, so they form a registry of their own
 * (`receiver.ts`) that the implementation suite never runs.
 */
export const receiverCategory = 'receiver';

export type Category = (typeof categories)[number] | typeof receiverCategory;

/** Every category a report can hold, in report order. */
export const reportedCategories: readonly Category[] = [...categories, receiverCategory];

/** The ID prefix of each category (`IDEM-003`). */
export const categoryPrefixes: Record<Category, string> = {
  contract: 'CONT',
  problems: 'PROB',
  auth: 'AUTH',
  versioning: 'VER',
  pagination: 'PAGE',
  idempotency: 'IDEM',
  'long-poll': 'POLL',
  sse: 'SSE',
  lifecycle: 'LIFE',
  isolation: 'ISO',
  webhooks: 'HOOK',
  plans: 'PLAN',
  messages: 'MSG',
  decisions: 'DEC',
  outcomes: 'OUT',
  exports: 'EXP',
  shares: 'SHARE',
  actions: 'ACT',
  'rate-limits': 'RATE',
  credits: 'CRED',
  'key-rotation': 'KROT',
  tiers: 'TIER',
  'summary-stream': 'SUMM',
  'session-events': 'SEVT',
  consult: 'CONS',
  'synth-chat': 'CHAT',
  'legacy-webhook': 'LEG',
  'delivery-retention': 'DLVR',
  receiver: 'RECV',
};

/**
 * `stated`: the seed says it; `variant`: one of the seed's published alternatives; `designed`: the
 * contract's choice where the seed says "not shown" (docs/decisions.md), the same legend as `x-provenance`.
 */
export type Provenance = 'stated' | 'variant' | 'designed';

/** A requirement as its category's module writes it. */
export interface RequirementDefinition {
  /** `<PREFIX>-<NNN>`, never reused for another rule. */
  id: string;
  level: Level;
  category: Category;
  /** The seed section the rule comes from, e.g. `Errors` or `Events › Delivery, retry and pause 3`. */
  seed: string;
  provenance: Provenance;
  /** The rule in one sentence. */
  statement: string;
  /** Further normative references (RFCs, the contract's decisions). */
  references?: readonly string[];
}

/** A requirement of a registry, with the names of the checks that test it. */
export interface Requirement extends RequirementDefinition {
  checks: readonly string[];
}
