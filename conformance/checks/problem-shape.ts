/**
 * Expecting a specific problem: the status and the catalog slug an error case must get (seed "Errors").
 * The format of every problem is checked separately, by the `problems.every-error` sweep.
 * @module
 */
import { type Exchange, jsonOf, mediaTypeOf } from '../harness/exchange.js';
import type { CheckContext } from '../harness/check.js';

/** The last path segment of a problem's `type` (seed "Errors": it is the error slug). */
export function problemSlug(exchange: Exchange): string | undefined {
  const body = jsonOf(exchange) as { type?: unknown } | undefined;
  if (typeof body?.type !== 'string') {
    return undefined;
  }
  return body.type
    .replace(/[?#].*$/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .pop();
}

export function isProblem(exchange: Exchange): boolean {
  return mediaTypeOf(exchange.response?.headers['content-type']) === 'application/problem+json';
}

/** Records whether `exchange` is the problem `status`/`slug`; returns whether it is. */
export function expectProblem(
  ctx: CheckContext,
  requirement: string,
  exchange: Exchange,
  status: number,
  slug: string,
  what: string,
): boolean {
  const got = exchange.response?.status;
  const gotSlug = problemSlug(exchange);
  return ctx.expect(
    requirement,
    got === status && gotSlug === slug,
    {
      kind: got === status ? 'problem' : 'status',
      message: `${what}: expected ${status} ${slug}`,
      expected: { status, slug },
      got: { status: got, slug: gotSlug ?? null },
      evidence: exchange,
    },
    `${what}: ${status} ${slug}`,
  );
}

/** The status of an exchange, for messages. */
export function statusOf(exchange: Exchange): number | undefined {
  return exchange.response?.status;
}

/** Expects `exchange` to have answered `status`; a `status` failure with `message` otherwise. */
export function expectStatus(
  ctx: CheckContext,
  requirement: string,
  exchange: Exchange,
  status: number,
  message: string,
  passMessage: string,
): boolean {
  return ctx.expect(
    requirement,
    statusOf(exchange) === status,
    { kind: 'status', message, expected: status, got: statusOf(exchange), evidence: exchange },
    passMessage,
  );
}
