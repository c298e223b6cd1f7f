/**
 * The catalogue of breaking changes the guard detects, with the reason each one breaks a client.
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

export type BreakingRule = keyof typeof breakingRules;

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
