/**
 * What the validation proxy finds in the traffic it relays: each contract violation with where it is
 * (the operation, the request, the status, a JSON Pointer into the request or the response) and the
 * evidence, and the kinds `--fail-on` chooses from.
 * @module
 */

/**
 * Where a violation is: in what the client sent (`request`), in what the implementation answered
 * (`response`: status, headers, body), or in one event of an event stream the implementation sent
 * (`stream`).
 */
export const violationKinds = ['request', 'response', 'stream'] as const;
export type ViolationKind = (typeof violationKinds)[number];

/** A violation found in one place, before it is tied to its exchange. */
export interface Finding {
  kind: ViolationKind;
  /**
   * A JSON Pointer prefixed with the part of the message it points into, as the mock's problems spell
   * them: `#/body/synths/0`, `#/query/limit`, `#/header/Retry-After`, `#/status`, `#/events/3/data/round`.
   */
  pointer: string;
  message: string;
  /** What the contract expects there (schema errors, documented statuses or media types). */
  expected?: unknown;
  /** What was sent instead, when it is short enough to show. */
  got?: unknown;
}

/** The request and answer a violation was found in, cut to a size a report can hold. */
export interface Evidence {
  method: string;
  /** The path and query the client asked for. */
  target: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  /** The body (or the stream's text) up to the evidence limit. */
  responseBody?: string;
  /** The body went on beyond what is kept. */
  truncated?: boolean;
}

export interface Violation extends Finding {
  /** The number of the exchange in the run, from 1. */
  exchange: number;
  /** The operationId, or `undefined` for a request the contract has no operation for. */
  operation: string | undefined;
  method: string;
  target: string;
  status: number | undefined;
  /** Whether `--fail-on` counts it, so that it fails the run. */
  counted: boolean;
  evidence: Evidence;
}

/** Parses `--fail-on`: a comma-separated list of kinds, `all`, or `none`. */
export function parseFailOn(value: string): ViolationKind[] {
  const words = value
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word !== '');
  if (words.length === 1 && words[0] === 'none') {
    return [];
  }
  if (words.length === 1 && words[0] === 'all') {
    return [...violationKinds];
  }
  const unknown = words.filter((word) => !(violationKinds as readonly string[]).includes(word));
  if (words.length === 0 || unknown.length > 0) {
    throw new Error(`--fail-on takes ${violationKinds.join(', ')} (comma-separated), all or none; got "${value}"`);
  }
  return violationKinds.filter((kind) => words.includes(kind));
}
