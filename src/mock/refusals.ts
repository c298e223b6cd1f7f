/**
 * The mock's refusals, in the contract's problem shape (seed "Errors", RFC 9457), built from the request
 * that was refused: its path as `instance`, and a `detail` and `errors` (JSON Pointers prefixed with the
 * request location, `#/body/synths`, `#/query/limit`, `#/path/id`, `#/header/Authorization`) that name what
 * is wrong with it. Prism answers a refused request with the contract's static example of the status,
 * whose detail and instance belong to another request; its real findings are its violations.
 * @module
 */
import type { ProblemHead } from '../contract/problem-types.js';
import type { PrismViolation } from './engine.js';

/** One entry of a problem's `errors` (the contract's `ProblemViolation`). */
export interface Violation {
  pointer: string;
  detail: string;
}

export interface Refusal {
  slug: RefusalSlug;
  detail: string;
  errors: Violation[];
}

/** The problem types the mock refuses a request with, by the status Prism chose. */
export const refusalSlugs = {
  400: 'invalid-request',
  401: 'unauthorized',
  404: 'not-found',
  405: 'method-not-allowed',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
} as const;

export type RefusalSlug = (typeof refusalSlugs)[keyof typeof refusalSlugs];

/** The request locations Prism reports violations at, and the pointer prefix of each. */
const locations: Record<string, string> = { body: '#/body', query: '#/query', path: '#/path', header: '#/header' };

/** A Prism violation of the request as a problem `errors` entry; its location becomes the pointer. */
export function violationOf(violation: PrismViolation): Violation {
  const [, where = 'body', ...rest] = violation.location;
  const prefix = locations[where] ?? `#/${where}`;
  const pointer = [prefix, ...rest.map((token) => token.replaceAll('~', '~0').replaceAll('/', '~1'))].join('/');
  return { pointer, detail: violation.message.replace(prismSubject, '') };
}

/** The subject Prism starts its messages with; the pointer names it already. */
const prismSubject = /^Request (?:body(?: property \S+)?|(?:path|query|header|cookie) parameter \S+) /;

/** `#/body/synths must NOT have fewer than 2 items; …` for the detail of an invalid request. */
function describe(errors: Violation[]): string {
  const listed = errors.slice(0, 5).map((error) => `${error.pointer} ${error.detail}`);
  const more = errors.length > 5 ? ` (and ${errors.length - 5} more)` : '';
  return `The request does not match the contract: ${listed.join('; ')}${more}.`;
}

/** At most this many `errors`, as the reference server lists them. */
const errorsMax = 20;

/** `400 invalid-request` from Prism's violations of the request. */
export function invalidRequest(violations: PrismViolation[]): Refusal {
  const errors = violations
    .filter((each) => each.severity === 'Error')
    .map(violationOf)
    .slice(0, errorsMax);
  const listed = errors.length > 0 ? errors : [{ pointer: '#', detail: 'does not match the contract' }];
  return { slug: 'invalid-request', detail: describe(listed), errors: listed };
}

/** `400 invalid-request` for a JSON body that does not parse. */
export function malformedJson(reason: string): Refusal {
  const detail = `is not valid JSON: ${reason}`;
  return { slug: 'invalid-request', detail: `The request body ${detail}.`, errors: [{ pointer: '#/body', detail }] };
}

/** `400 invalid-request` for a path whose percent-encoding does not decode (RFC 3986 §2.1). */
export function malformedPath(): Refusal {
  const detail = 'has a percent sign not followed by the UTF-8 bytes of a character (RFC 3986 §2.1)';
  return { slug: 'invalid-request', detail: `The request path ${detail}.`, errors: [{ pointer: '#/path', detail }] };
}

/**
 * `401 unauthorized`, saying what is wrong with the request's `Authorization` header. Only a scheme's name
 * is repeated, never what may be a key (a problem reveals no secret, RFC 9457 §5).
 */
export function unauthorized(authorization: string | undefined): Refusal {
  const pointer = '#/header/Authorization';
  const [scheme = '', token = ''] = (authorization ?? '').trim().split(/\s+/, 2);
  const detail =
    authorization === undefined || authorization.trim() === ''
      ? 'is missing; send Authorization: Bearer <API key>'
      : token === '' && scheme.toLowerCase() !== 'bearer'
        ? 'has no scheme; the API takes Bearer <API key>'
        : scheme.toLowerCase() !== 'bearer'
          ? `uses the scheme "${/^[A-Za-z-]{1,20}$/.test(scheme) ? scheme : '…'}"; the API takes Bearer <API key>`
          : token === ''
            ? 'has no token after Bearer'
            : 'was not accepted';
  return { slug: 'unauthorized', detail: `The Authorization header ${detail}.`, errors: [{ pointer, detail }] };
}

export function notFound(path: string): Refusal {
  const detail = 'matches no path of the API; paths hang from the base URL, e.g. /v1/sessions';
  return { slug: 'not-found', detail: `${path} ${detail}.`, errors: [{ pointer: '#/path', detail }] };
}

export function methodNotAllowed(method: string, path: string, allow: string[]): Refusal {
  const detail = `${path} offers ${allow.join(', ')}, not ${method}`;
  return { slug: 'method-not-allowed', detail: `${detail}.`, errors: [{ pointer: '#/path', detail }] };
}

export function payloadTooLarge(limit: number, declared: number | undefined): Refusal {
  const size = declared === undefined ? `more than ${limit}` : String(declared);
  const detail = `has ${size} bytes; the limit is ${limit}`;
  return { slug: 'payload-too-large', detail: `The request body ${detail}.`, errors: [{ pointer: '#/body', detail }] };
}

export function unsupportedMediaType(contentType: string | undefined, accepted: string[]): Refusal {
  const sent = contentType === undefined || contentType === '' ? 'no Content-Type' : `Content-Type ${contentType}`;
  const wanted = accepted.length > 0 ? accepted.join(', ') : 'application/json';
  const detail = `is ${sent}; the operation takes ${wanted}`;
  return {
    slug: 'unsupported-media-type',
    detail: `The request body ${detail}.`,
    errors: [{ pointer: '#/header/Content-Type', detail }],
  };
}

/**
 * The request path as a URI reference (RFC 3986 §4.1), which `instance` must be: a `%` that starts no
 * escape, and any character a path may not hold, percent-encoded.
 */
export function instanceOf(path: string): string {
  return path.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (character) =>
    encodeURIComponent(character),
  );
}

/** The problem body of a refusal: the type's head from the catalogue, the rest from the request. */
export function problemBody(head: ProblemHead, refusal: Refusal, path: string): Record<string, unknown> {
  return { ...head, detail: refusal.detail, instance: instanceOf(path), errors: refusal.errors };
}
