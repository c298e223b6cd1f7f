/**
 * The rows of the variant table that need the contract and the suite to take what the service publishes
 * beyond the seed (variants.ts `openContractVariants`): the published webhook envelopes, and unknown
 * members in every answer. Each must get the verdict the reference server gets on its own.
 */
import { describe, expect, test } from 'vitest';
import { directVerdict, unmet, verdict } from './equivalent-run.js';
import { openContractVariants } from './variants.js';

describe.concurrent('another correct implementation of the published service gets the same verdict', () => {
  test.each(openContractVariants.map((row) => [row.name, row] as const))(
    '%s',
    async (_, row) => {
      const [expected, actual] = await Promise.all([
        directVerdict(row.only),
        verdict(row.variant, row.only, row.server),
      ]);
      expect(unmet(expected)).toEqual({});
      expect(expected.exitCode).toBe(0);
      expect(actual).toEqual(expected);
    },
    240_000,
  );
});
