/**
 * The catalogue of contract changes the diff detects: the breaking ones with the reason each breaks a
 * client, then every other kind of change with its class, and the rules of the deprecation policy.
 *
 * Direction matters (after GitHub's description checks): a request that used to be valid must stay
 * valid, so requests may only widen; a response a client could read must stay readable, so responses
 * may only narrow or add members. Webhook payloads are read by the receiver, so they follow the
 * response rules. New enum values in responses do not count: responses stay open and clients must
 * tolerate values they do not know (seed "Versioning" 3, docs/versioning.md).
 * @module
 */

export const breakingRules = {
  'operation-removed': 'an operation or webhook of the released contract is gone',
  'operation-id-changed': 'generated clients call operations by their operationId',
  'path-parameter-renamed': 'generated clients name path parameters as the contract does',
  'parameter-removed': 'clients send it (requests) or read it (webhook headers)',
  'parameter-became-required': 'requests without it are now refused',
  'request-body-became-required': 'requests without a body are now refused',
  'media-type-removed': 'clients send or read that media type',
  'response-removed': 'clients expect that success status',
  'response-header-removed': 'clients read that header',
  'type-changed': 'a request value that was valid is refused, or a response value has a type clients do not expect',
  'property-removed': 'clients read it (responses), or send it to a closed request schema',
  'property-became-required': 'requests without it are now refused',
  'property-no-longer-required': 'clients rely on a response member that may now be missing',
  'enum-value-removed': 'clients send or compare against that value',
  'const-changed': 'the one allowed value changed',
  'constraint-tightened': 'a request value that was valid is now refused',
  'format-changed': 'a value no longer has the format or pattern clients were promised',
  'schema-closed': 'requests with members the schema did not declare are now refused',
  'variant-removed': 'requests in that shape are now refused',
  'variant-added': 'clients receive a response shape they do not know',
} as const;

/** The classes of change of the changelog, in the order it lists them. */
export const changeClasses = ['breaking', 'deprecated', 'additive', 'non-breaking'] as const;
export type ChangeClass = (typeof changeClasses)[number];

/** Every change that breaks no client, with its class and what it means. */
export const otherRules = {
  'operation-deprecated': { class: 'deprecated', means: 'the operation or webhook is marked deprecated' },
  'parameter-deprecated': { class: 'deprecated', means: 'the parameter is marked deprecated' },
  'schema-deprecated': { class: 'deprecated', means: 'the member or schema is marked deprecated' },
  'operation-added': { class: 'additive', means: 'a new operation or webhook' },
  'parameter-added': { class: 'additive', means: 'a new optional parameter' },
  'response-added': { class: 'additive', means: 'a new documented response status' },
  'response-header-added': { class: 'additive', means: 'a new response header' },
  'media-type-added': { class: 'additive', means: 'a new media type of a body' },
  'property-added': { class: 'additive', means: 'a new member (optional in requests)' },
  'enum-value-added': { class: 'additive', means: 'a new allowed value' },
  'request-variant-added': { class: 'additive', means: 'requests may take a new shape' },
  'description-changed': { class: 'non-breaking', means: "the operation's summary or description was edited" },
  'error-response-removed': { class: 'non-breaking', means: 'an error status is no longer documented' },
  'required-changed': {
    class: 'non-breaking',
    means: 'a member or parameter became optional in requests, or always present in responses',
  },
  'constraint-changed': {
    class: 'non-breaking',
    means: 'a type, format, pattern or bound changed the way clients keep working',
  },
  'property-undocumented': {
    class: 'non-breaking',
    means: 'a request member is no longer documented; the open schema still takes it',
  },
  'response-variant-removed': { class: 'non-breaking', means: 'a response shape is no longer sent' },
} as const satisfies Record<string, { class: Exclude<ChangeClass, 'breaking'>; means: string }>;

/** The deprecation policy's rules (`x-deprecation-policy`, seed "Versioning" 2): each finding fails the diff. */
export const policyRules = {
  'removed-before-deprecation-period':
    'a deprecated operation or member was removed before the deprecation period of the policy passed',
  'deprecation-header-missing': 'a deprecated operation does not declare the headers the policy says it sends',
} as const;

export type BreakingRule = keyof typeof breakingRules;
export type ChangeRule = BreakingRule | keyof typeof otherRules;
export type PolicyRule = keyof typeof policyRules;

export function classOf(rule: ChangeRule): ChangeClass {
  return rule in breakingRules ? 'breaking' : otherRules[rule as keyof typeof otherRules].class;
}

export type Direction = 'request' | 'response';

export interface BreakingChange {
  rule: BreakingRule;
  /** The operation it affects: `GET /v1/sessions/{id}` or `webhook session.complete`. */
  operation: string;
  /** Where inside the operation, e.g. `response 200 application/json .memo.verdict`. */
  where: string;
  /** The component schema the change sits in, when it sits in one (a declaration may name it). */
  component?: string;
}

/** Where a change sits: JSON Pointers (RFC 6901) into the base and into the revision, where each has it. */
export interface ChangePlace {
  base?: string;
  revision?: string;
}

/** One entry of the changelog: any change, breaking or not. */
export interface ContractChange {
  rule: ChangeRule;
  class: ChangeClass;
  operation: string;
  where: string;
  component?: string;
  /** Whether the operation is one the guard protects (`/v1`, unversioned paths, webhooks). */
  guarded: boolean;
  at: ChangePlace;
}
