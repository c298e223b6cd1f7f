/**
 * The contract itself passes `boardkit lint`: Redocly and Spectral, zero errors and zero warnings
 * (openapi/README.md "Changing the contract").
 */
import { describe, expect, it } from 'vitest';
import { formatFindings, lintContract } from '../../src/lint/index.js';

describe('boardkit lint on openapi/openapi.yaml', () => {
  it('reports no errors and no warnings', { timeout: 180_000 }, async () => {
    const result = await lintContract();
    expect(result.findings, formatFindings(result)).toEqual([]);
    expect(result.errors).toBe(0);
    expect(result.warnings).toBe(0);
  });
});
