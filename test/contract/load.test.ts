import { describe, expect, test } from 'vitest';
import { loadContract, parseContract } from '../../src/contract/load.js';
import { bundledJson } from '../../src/contract/paths.js';

describe('loadContract', () => {
  test('reads the bundled contract once and shares it', () => {
    const document = loadContract();
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(loadContract(bundledJson)).toBe(document);
    expect(Object.isFrozen(document)).toBe(true);
  });
});

describe('parseContract', () => {
  test('accepts 3.1 and rejects other versions', () => {
    expect(parseContract('{"openapi":"3.1.0","info":{"title":"t","version":"1"}}').openapi).toBe('3.1.0');
    expect(() => parseContract('{"openapi":"3.0.3"}', 'old.json')).toThrow(/old.json is not an OpenAPI 3.1/);
    expect(() => parseContract('{"swagger":"2.0"}')).toThrow(/undefined/);
  });
});
