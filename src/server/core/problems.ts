/**
 * RFC 9457 (formerly RFC 7807) problem details, built from the contract's error catalogue
 * (`x-problem-types` at the root): the slug, status and title of every problem come from there, so the
 * catalogue lives in one place.
 * @module
 */
import type { ProblemCatalogue } from '../ports/services.js';
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from '../../contract/load.js';
import { problemTypes, type ProblemTypeEntry } from '../../contract/problem-types.js';
import type { components } from '../../generated/openapi.js';
import { internalError } from './internal-errors.js';

export type Violation = components['schemas']['ProblemViolation'];

export const problemMediaType = 'application/problem+json';

/** The statuses of the catalogue; each has exactly one slug. */
export type ProblemStatus = 400 | 401 | 402 | 403 | 404 | 405 | 408 | 409 | 413 | 415 | 429 | 500;

/**
 * A problem raised below the handler (a missing resource, a state conflict, an idempotency conflict).
 * The error handler renders it; response validation then checks the operation documents its status.
 */
export class ProblemError extends Error {
  constructor(
    readonly status: ProblemStatus,
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
  }
}

/**
 * `instance` is a `uri-reference` (the contract's `Problem`), but the request path arrives as the client
 * wrote it: characters RFC 3986 §3.3 does not allow in a path (`\`, `{`, `|`, a `%` without two hex
 * digits) are percent-encoded as UTF-8 (§2.1), so the problem stays valid whatever was requested.
 */
function asUriReference(path: string): string {
  return path.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (character) =>
    [...Buffer.from(character, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

export function problemCatalogue(document: OpenApiDocument): ProblemCatalogue {
  const types = problemTypes(document);
  const byStatus = new Map(types.types.map((entry) => [entry.status, entry]));
  function entryOf(status: number): ProblemTypeEntry {
    const entry = byStatus.get(status) ?? byStatus.get(500);
    if (entry === undefined) {
      throw internalError('BOARDKIT_CONTRACT_NO_PROBLEM_TYPE', status);
    }
    return entry;
  }
  return {
    slugOf: (status) => entryOf(status).slug,
    body(status, detail, extensions = {}, instance) {
      const entry = entryOf(status);
      return {
        type: `${types.base_uri}${entry.slug}`,
        title: entry.title,
        status: entry.status,
        detail,
        ...(instance === undefined ? {} : { instance: asUriReference(instance) }),
        ...extensions,
      };
    },
  };
}

export const notFound = (what: string): ProblemError => new ProblemError(404, `${what} was not found.`);
export const conflict = (detail: string): ProblemError => new ProblemError(409, detail);
export const invalid = (detail: string, errors: Violation[]): ProblemError => new ProblemError(400, detail, { errors });

export function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** One violation per Ajv error, pointing at the member concerned (a missing or extra property included). */
export function violationsOf(errors: ErrorObject[], prefix: string): Violation[] {
  const seen = new Set<string>();
  const violations: Violation[] = [];
  for (const error of errors) {
    let pointer = `${prefix}${error.instancePath}`;
    const params = error.params as { missingProperty?: string; additionalProperty?: string };
    if (error.keyword === 'required' && params.missingProperty !== undefined) {
      pointer += `/${escapeToken(params.missingProperty)}`;
    } else if (error.keyword === 'additionalProperties' && params.additionalProperty !== undefined) {
      pointer += `/${escapeToken(params.additionalProperty)}`;
    }
    const detail = error.message ?? `fails ${error.keyword}`;
    const key = `${pointer}\u0000${detail}`;
    if (!seen.has(key)) {
      seen.add(key);
      violations.push({ pointer, detail });
    }
  }
  return violations;
}
