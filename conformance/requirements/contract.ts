/**
 * Contract conformance: every response the run sees is one the contract documents (seed "Endpoints",
 * "Status codes"; the bundled OpenAPI 3.1 document is the reference).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const contractRequirements: readonly RequirementDefinition[] = [
  {
    id: 'CONT-001',
    level: 'MUST',
    category: 'contract',
    seed: 'Endpoints › Status codes',
    provenance: 'stated',
    statement: 'Every response status is one the contract documents for the operation that was called.',
  },
  {
    id: 'CONT-002',
    level: 'MUST',
    category: 'contract',
    seed: 'Errors',
    provenance: 'stated',
    statement: 'Every response with a body declares a Content-Type the contract documents for that status.',
    references: ['RFC 9110 §8.3'],
  },
  {
    id: 'CONT-003',
    level: 'MUST',
    category: 'contract',
    seed: 'Endpoints',
    provenance: 'stated',
    statement:
      'Every response carries the headers the contract marks required, and each declared header present matches its schema.',
  },
  {
    id: 'CONT-004',
    level: 'MUST',
    category: 'contract',
    seed: 'Resources and their fields',
    provenance: 'stated',
    statement:
      'Every response body, and every event of a stream, validates against the schema the contract documents for it.',
  },
  {
    id: 'CONT-005',
    level: 'MUST',
    category: 'contract',
    seed: 'What the service does 4',
    provenance: 'stated',
    statement: 'Every read operation without a path parameter (lists, credits, health) answers 200 to a valid request.',
  },
  {
    id: 'CONT-006',
    level: 'MUST',
    category: 'contract',
    seed: 'Errors',
    provenance: 'stated',
    statement: 'No request of the run, valid or invalid, is answered with a 5xx: 500 is reserved for server faults.',
  },
];
