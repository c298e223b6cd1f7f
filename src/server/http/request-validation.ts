/**
 * Request validation against the contract's own schemas (Ajv 2020 through src/contract/validator):
 * path, query and header parameters, then the JSON body. Violations carry a pointer prefixed with the
 * location (`#/body/synths`, `#/query/limit`), the `errors` extension of RFC 9457 §3.
 * @module
 */
import type { ContractValidator } from '../../contract/validator.js';
import { escapeToken, violationsOf, type Violation } from '../core/problems.js';
import type { Route, RouteBody, RouteParameter } from './routes.js';

export interface RawRequest {
  path: Record<string, string | undefined>;
  query: Record<string, unknown>;
  /** Node's headers: lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or `undefined` when none was sent. */
  body: unknown;
}

export interface ValidatedRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

/** Converts a URL or header string to the parameter's scalar type; anything else is left for Ajv to refuse. */
function coerce(parameter: RouteParameter, value: string): unknown {
  switch (parameter.scalarType) {
    case 'integer':
      return /^-?\d{1,15}$/.test(value) ? Number(value) : value;
    case 'number':
      return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    default:
      return value;
  }
}

/**
 * The violations of a body. A body that matches no variant of a `oneOf` (a start request is variant A
 * or B) gets the violations of the variant it comes closest to, rather than those of every variant.
 */
function bodyViolations(validator: ContractValidator, body: RouteBody, value: unknown): Violation[] {
  const result = validator.validate(body.schemaPointer, value);
  if (result.valid) {
    return [];
  }
  const failedAtRoot = result.errors.some((error) => error.keyword === 'oneOf' && error.instancePath === '');
  if (!failedAtRoot || body.variantPointers.length === 0) {
    return violationsOf(result.errors, '#/body');
  }
  const closest = body.variantPointers
    .map((pointer) => validator.validate(pointer, value).errors)
    .reduce((best, errors) => (errors.length < best.length ? errors : best));
  return violationsOf(closest, '#/body');
}

/** Where a parameter's violation points; written only for a violation, since most requests have none. */
function pointerOf(parameter: RouteParameter): string {
  return `#/${parameter.in}/${escapeToken(parameter.name)}`;
}

function rawValue(request: RawRequest, parameter: RouteParameter): unknown {
  switch (parameter.in) {
    case 'path':
      return request.path[parameter.name];
    case 'query':
      return request.query[parameter.name];
    case 'header':
      return request.headers[parameter.name.toLowerCase()];
  }
}

export function validateRequest(
  validator: ContractValidator,
  route: Route,
  request: RawRequest,
): { value: ValidatedRequest; violations: Violation[] } {
  const value: ValidatedRequest = { path: {}, query: {}, headers: {}, body: request.body };
  const violations: Violation[] = [];
  for (const parameter of route.parameters) {
    const raw = rawValue(request, parameter);
    if (raw === undefined) {
      if (parameter.required) {
        violations.push({ pointer: pointerOf(parameter), detail: 'is required' });
      }
      continue;
    }
    if (Array.isArray(raw)) {
      violations.push({ pointer: pointerOf(parameter), detail: 'must be given once' });
      continue;
    }
    const coerced = typeof raw === 'string' ? coerce(parameter, raw) : raw;
    const result = validator.validate(parameter.schemaPointer, coerced);
    if (result.valid) {
      value[parameter.in === 'header' ? 'headers' : parameter.in][parameter.name] = coerced;
    } else {
      violations.push(...violationsOf(result.errors, pointerOf(parameter)));
    }
  }
  if (route.body !== undefined) {
    if (request.body === undefined) {
      if (route.body.required) {
        violations.push({ pointer: '#/body', detail: 'a JSON request body is required' });
      }
    } else {
      violations.push(...bodyViolations(validator, route.body, request.body));
    }
  }
  return { value, violations };
}

/** The one-line summary of a list of violations, for the problem's `detail`. */
export function describeViolations(violations: Violation[]): string {
  const [first] = violations;
  if (first === undefined) {
    return 'The request does not match the contract.';
  }
  const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : '';
  return `The request does not match the contract: ${first.pointer} ${first.detail}${more}.`;
}
