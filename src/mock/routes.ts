/**
 * The mock's route table, compiled once from the contract's paths: which operation a request is for,
 * or why none is. The contract states (info "Errors") that an unknown path is a `404 not-found` problem
 * and a known path with an undocumented method a `405 method-not-allowed` problem with `Allow`
 * (RFC 9110 §15.5.6); routing comes before authentication and validation, so the front door answers
 * both itself and Prism only ever sees a request for an operation the contract has.
 *
 * A request path matches a template of as many segments whose literal segments are equal and whose
 * `{templated}` segments are not empty. Of several matches the most concrete wins, segment by segment
 * from the left (a literal before a template), as Prism scores them: `/v1/sessions/plan` is the plan
 * path, never the session `plan`.
 * @module
 */
import type { OpenApiDocument } from '../contract/load.js';

/** The methods a client can send to a path; OPTIONS is the CORS preflight's. */
export const routedMethods = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface CompiledPath {
  template: string;
  /** Per segment: the literal text, or a pattern for a segment holding `{parameters}`. */
  segments: Array<string | RegExp>;
  /** The offered methods, upper case, in the contract's order. */
  methods: string[];
}

export type Route =
  | { kind: 'operation'; template: string; method: string; key: string }
  | { kind: 'method-not-allowed'; template: string; allow: string[] }
  | { kind: 'not-found' };

export interface RouteTable {
  route(method: string, path: string): Route;
  /** Every operation, `METHOD template`. */
  keys: string[];
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

function compileSegment(segment: string): string | RegExp {
  if (!segment.includes('{')) {
    return segment;
  }
  const parts = segment.split(/\{[^}]+\}/).map(escapeRegExp);
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

function segmentMatches(pattern: string | RegExp, segment: string): boolean {
  return typeof pattern === 'string' ? pattern === segment : segment !== '' && pattern.test(segment);
}

/** Negative when `left` is more concrete than `right` (its first differing segment is a literal). */
function byConcreteness(left: CompiledPath, right: CompiledPath): number {
  for (let index = 0; index < left.segments.length; index += 1) {
    const a = typeof left.segments[index] === 'string';
    const b = typeof right.segments[index] === 'string';
    if (a !== b) {
      return a ? -1 : 1;
    }
  }
  return 0;
}

export function compileRoutes(document: OpenApiDocument): RouteTable {
  const compiled: CompiledPath[] = Object.entries(
    (document.paths ?? {}) as Record<string, Record<string, unknown>>,
  ).map(([template, item]) => ({
    template,
    segments: template.split('/').slice(1).map(compileSegment),
    methods: routedMethods.filter((method) => item[method] !== undefined).map((method) => method.toUpperCase()),
  }));
  const byLength = new Map<number, CompiledPath[]>();
  for (const path of [...compiled].sort(byConcreteness)) {
    byLength.set(path.segments.length, [...(byLength.get(path.segments.length) ?? []), path]);
  }

  function route(method: string, path: string): Route {
    const segments = path.split('/').slice(1);
    // Sorted most concrete first, so the first match is the best one.
    const match = byLength
      .get(segments.length)
      ?.find((candidate) => candidate.segments.every((pattern, index) => segmentMatches(pattern, segments[index]!)));
    if (match === undefined) {
      return { kind: 'not-found' };
    }
    const upper = method.toUpperCase();
    return match.methods.includes(upper)
      ? { kind: 'operation', template: match.template, method: upper, key: `${upper} ${match.template}` }
      : { kind: 'method-not-allowed', template: match.template, allow: match.methods };
  }
  return { route, keys: compiled.flatMap((path) => path.methods.map((method) => `${method} ${path.template}`)) };
}
