/**
 * Authentication (seed "Authentication"): bearer keys on every operation but the health probe.
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const authRequirements: readonly RequirementDefinition[] = [
  {
    id: 'AUTH-001',
    level: 'MUST',
    category: 'auth',
    seed: 'Authentication 10',
    provenance: 'stated',
    statement:
      'A request without an Authorization header is answered 401 unauthorized on every authenticated operation.',
  },
  {
    id: 'AUTH-002',
    level: 'MUST',
    category: 'auth',
    seed: 'Authentication 10',
    provenance: 'stated',
    statement: 'A request with a bearer token that is not a valid key is answered 401 unauthorized.',
  },
  {
    id: 'AUTH-003',
    level: 'MUST',
    category: 'auth',
    seed: 'Authentication 1',
    provenance: 'stated',
    statement: 'A valid key sent with another scheme than Bearer (Basic, Token, bare) is answered 401 unauthorized.',
  },
  {
    id: 'AUTH-004',
    level: 'MUST',
    category: 'auth',
    seed: 'Authentication 9',
    provenance: 'stated',
    statement: 'GET /v1/health answers 200 without any credentials.',
  },
  {
    id: 'AUTH-005',
    level: 'MUST',
    category: 'auth',
    seed: 'Authentication 1',
    provenance: 'stated',
    statement: 'A valid key sent as Authorization: Bearer <API_KEY> is accepted.',
  },
  {
    id: 'AUTH-006',
    level: 'SHOULD',
    category: 'auth',
    seed: 'Authentication 10',
    provenance: 'designed',
    statement: 'A 401 answer names the Bearer scheme in WWW-Authenticate.',
    references: ['RFC 9110 §11.6.1', 'RFC 6750 §3'],
  },
  {
    id: 'AUTH-007',
    level: 'SHOULD',
    category: 'auth',
    seed: 'Authentication 1',
    provenance: 'stated',
    statement: 'The authentication scheme name is matched case-insensitively (bearer, BEARER).',
    references: ['RFC 9110 §11.1'],
  },
];
