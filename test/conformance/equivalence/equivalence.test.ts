/**
 * The suite is fair to other correct implementations: through a rewriting proxy the reference server
 * answers in each way of the variant table (variants.ts) that the seed and the standards allow, and the
 * suite's verdict on every requirement is the same as on the server itself.
 */
import { describe, expect, test } from 'vitest';
import { variants } from './variants.js';
import { directVerdict, unmet, verdict } from './equivalent-run.js';

describe.concurrent('another correct implementation gets the same verdict', () => {
  test.each(variants.map((row) => [row.name, row] as const))(
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
