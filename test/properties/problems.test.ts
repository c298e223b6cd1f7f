/**
 * Properties of problem building (RFC 9457; the contract's `x-problem-types` catalogue): whatever the
 * status, detail, extensions and request path, the body is valid against the contract's `Problem` schema,
 * its `status` is the status asked for (or 500 for one outside the catalogue), and the last segment of its
 * `type` is the catalogue's slug for that status. The 402 and 429 bodies also satisfy their own schemas.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { createContractValidator } from '../../src/contract/validator.js';
import { problemCatalogue } from '../../src/server/core/problems.js';

const document = loadContract();
const validator = createContractValidator(document);
const catalogue = problemCatalogue(document);
interface CatalogueEntry {
  slug: string;
  status: number;
  title: string;
}
const catalogued = (document as unknown as { 'x-problem-types': { types: CatalogueEntry[] } })['x-problem-types'].types;

const cataloguedStatus = fc.constantFrom(...catalogued.map((entry) => entry.status));
const detail = fc.string({ unit: 'grapheme', maxLength: 300 });
const violation = fc.record({
  pointer: fc
    .constantFrom('#/body', '#/query', '#/header', '#/path')
    .chain((root) =>
      fc.array(fc.string({ maxLength: 12 }), { maxLength: 4 }).map((tokens) => [root, ...tokens].join('/')),
    ),
  detail,
});
const extensions = fc.record(
  { errors: fc.array(violation, { maxLength: 5 }), request_id: fc.string({ minLength: 1, maxLength: 30 }) },
  { requiredKeys: [] },
);
/**
 * The request path as Node's HTTP parser hands it over: any printable ASCII a client puts in the request
 * line, percent-escapes and characters a URI may not hold (`\`, `{`, `|`, `^`, `[`) included (it refuses
 * spaces, controls and raw non-ASCII bytes before the server sees them).
 */
const requestPath = fc.oneof(
  fc.webPath(),
  fc.string({ maxLength: 60 }).map((text) => `/v1/sessions/${text.replaceAll(' ', '')}`),
);

function isProblem(body: unknown): boolean {
  return validator.validate('#/components/schemas/Problem', body).valid;
}

describe('problem building', () => {
  test('every catalogued problem is a valid Problem with its status, slug and title', () => {
    fc.assert(
      fc.property(
        cataloguedStatus,
        detail,
        extensions,
        fc.option(requestPath, { nil: undefined }),
        (status, text, extra, path) => {
          const body = catalogue.body(status, text, extra, path);
          expect(validator.validate('#/components/schemas/Problem', body).errors).toEqual([]);
          const entry = catalogued.find((candidate) => candidate.status === status);
          expect(body.status).toBe(status);
          expect(body.type.split('/').at(-1)).toBe(entry?.slug);
          expect(body.title).toBe(entry?.title);
          expect(body.detail).toBe(text);
        },
      ),
    );
  });

  test('a path that is already a valid URI reference is kept as it is', () => {
    fc.assert(
      fc.property(cataloguedStatus, fc.webPath(), (status, path) => {
        expect(catalogue.body(status, 'detail', {}, path).instance).toBe(path);
      }),
    );
  });

  test('a status outside the catalogue becomes a valid internal-error problem', () => {
    const uncatalogued = fc
      .integer({ min: 100, max: 599 })
      .filter((status) => !catalogued.some((entry) => entry.status === status));
    fc.assert(
      fc.property(uncatalogued, detail, (status, text) => {
        const body = catalogue.body(status, text);
        expect(isProblem(body)).toBe(true);
        expect(body.status).toBe(500);
        expect(catalogue.slugOf(status)).toBe('internal-error');
      }),
    );
  });

  test('the insufficient-credits and rate-limited problems satisfy their own schemas', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer(), fc.nat(), detail, requestPath, (estimate, balance, wait, text, path) => {
        const credits = catalogue.body(
          402,
          text,
          {
            session_estimate_credits: estimate,
            balance_credits: balance,
            topup_url: 'https://console.decision-board.example/billing/credits',
          },
          path,
        );
        expect(validator.validate('#/components/schemas/InsufficientCreditsProblem', credits).errors).toEqual([]);
        const limited = catalogue.body(429, text, { retry_after_s: wait }, path);
        expect(validator.validate('#/components/schemas/RateLimitedProblem', limited).errors).toEqual([]);
      }),
    );
  });
});
