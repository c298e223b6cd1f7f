import { describe, expect, test } from 'vitest';
import { createContractValidator } from '../../src/contract/validator.js';
import { miniContract } from '../fixtures/mini-contract.js';

describe('createContractValidator', () => {
  const validator = createContractValidator(miniContract());

  test('validates against a schema pointer, resolving #/components references', () => {
    expect(validator.validate('#/components/schemas/Thing', { side: 2 }).valid).toBe(true);
    const result = validator.validate('#/components/schemas/Thing', { side: 2, radius: 1 });
    expect(result.valid).toBe(false);
    expect(result.errors.map((error) => error.keyword)).toContain('oneOf');
  });

  test('applies 2020-12 keywords and ajv-formats', () => {
    expect(validator.validate('#/components/headers/X-Service-API-Version/schema', '2026-10-01').valid).toBe(true);
    expect(validator.validate('#/components/headers/X-Service-API-Version/schema', '2026-13-01').valid).toBe(false);
    expect(validator.validate('#/components/schemas/Circle', { radius: 0 }).valid).toBe(false);
  });

  test('compiles each schema once', () => {
    expect(validator.schemaAt('#/components/schemas/Thing')).toBe(validator.schemaAt('#/components/schemas/Thing'));
  });

  test('rejects a pointer to nothing', () => {
    expect(() => validator.schemaAt('#/components/schemas/Nope')).toThrow(/No schema/);
  });

  test('finds response body validators by status, range and media type', () => {
    const ok = validator.responseBody('getThing', 200);
    expect(ok?.({ radius: 1 })).toBe(true);
    expect(ok?.({ colour: 'red' })).toBe(false);
    // 404 is covered by the `4XX` range, whose response is a $ref to components.responses.
    const problem = validator.responseBody('getThing', 404, 'application/problem+json');
    expect(problem?.({ type: 'https://problems.example/not-found', status: 404 })).toBe(true);
    expect(validator.responseBody('getThing', 404)).toBeUndefined();
    expect(validator.responseBody('getThing', 500, 'application/problem+json')).toBeUndefined();
    expect(validator.responseBody('onThingCreated', 204)).toBeUndefined();
    expect(() => validator.responseBody('nope', 200)).toThrow(/No operation nope/);
  });
});
