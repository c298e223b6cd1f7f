/**
 * The routing problems written into the mock document as operations, so the document lists every answer
 * the mock gives (the example catalog reads it). The front door (`front.ts`) answers these requests
 * itself from its route table (`routes.ts`); Prism is given the contract's operations only.
 *
 * The contract states (info "Errors") that an unknown path is a `404 not-found` problem and a known path
 * with an undocumented method a `405 method-not-allowed` problem. The document gets:
 * 1. on every path, each missing method as an operation answering the 405 problem with `Allow`
 *    (RFC 9110 §15.5.6);
 * 2. catch-all paths `/{segment1}` … `/{segment1}/…/{segmentN}`, every method answering the 404 problem,
 *    one segment deeper than the deepest contract path.
 * Both are unauthenticated, and the 405 operations take every parameter as a plain string: routing comes
 * before authentication and validation, so nothing may turn these answers into a 401 or a 400.
 * @module
 */
import type { OpenApiDocument } from '../contract/load.js';
import { resolve } from '../contract/pointer.js';
import { problemHead, problemTypes } from '../contract/problem-types.js';
import { routedMethods } from './routes.js';

export { routedMethods };

type Node = Record<string, unknown>;

/** Marks an operation the mock added; its value names the problem it answers with. */
export const fallbackMarker = 'x-mock-fallback';

/** Catch-all depth: one more segment than the deepest contract path, so near misses are covered too. */
function catchAllDepth(document: OpenApiDocument): number {
  const depths = Object.keys(document.paths ?? {}).map((path) => path.split('/').length - 1);
  return Math.max(1, ...depths) + 1;
}

/** The response headers every response declares, taken from the contract's own 404 response. */
function commonHeaders(document: OpenApiDocument): Node {
  const notFound = resolve<Node>(document, '#/components/responses/NotFound').node;
  return { ...((notFound['headers'] as Node | undefined) ?? {}) };
}

function problemResponse(
  document: OpenApiDocument,
  slug: string,
  example: { name: string; detail: string },
  extraHeaders: Node = {},
): Node {
  const problem = problemHead(problemTypes(document), slug);
  return {
    [String(problem.status)]: {
      description: `${problem.title} (\`${slug}\`).`,
      headers: { ...commonHeaders(document), ...extraHeaders },
      content: {
        'application/problem+json': {
          schema: { $ref: '#/components/schemas/Problem' },
          examples: { [example.name]: { value: { ...problem, detail: example.detail } } },
        },
      },
    },
  };
}

/** Every parameter of a path item, loosened to a string so validation cannot preempt the routing error. */
function plainParameters(document: OpenApiDocument, pathItem: Node): Node[] {
  return ((pathItem['parameters'] as unknown[] | undefined) ?? []).map((parameter) => {
    const { name, in: location } = (
      typeof parameter === 'object' && parameter !== null && '$ref' in parameter
        ? resolve<Node>(document, String(parameter.$ref)).node
        : parameter
    ) as { name: string; in: string };
    return { name, in: location, required: location === 'path', schema: { type: 'string' } };
  });
}

/** Adds the 405 operations to every path of `document` (changed in place). */
export function addMethodNotAllowed(document: OpenApiDocument): void {
  const paths = (document.paths ?? {}) as Record<string, Node>;
  for (const [path, item] of Object.entries(paths)) {
    // A referenced path item may be shared; the added methods belong to this path only.
    const pathItem = '$ref' in item ? { ...resolve<Node>(document, String(item['$ref'])).node } : item;
    paths[path] = pathItem;
    const offered = routedMethods.filter((method) => pathItem[method] !== undefined);
    const allow = offered.map((method) => method.toUpperCase()).join(', ');
    const allowHeader = {
      description: 'The methods the path offers.',
      required: true,
      schema: { type: 'string' },
      example: allow,
    };
    for (const method of routedMethods.filter((candidate) => !offered.includes(candidate))) {
      pathItem[method] = {
        summary: `${method.toUpperCase()} is not offered on this path`,
        [fallbackMarker]: 'method-not-allowed',
        security: [],
        parameters: plainParameters(document, pathItem),
        responses: problemResponse(
          document,
          'method-not-allowed',
          { name: 'method_not_allowed', detail: `${path} offers ${allow}, not ${method.toUpperCase()}.` },
          { Allow: allowHeader },
        ),
      };
    }
  }
}

/** Adds the catch-all paths answering the 404 problem to `document` (changed in place). */
export function addUnknownPaths(document: OpenApiDocument): void {
  const paths = (document.paths ?? {}) as Record<string, Node>;
  const operation = {
    summary: 'No operation at this path',
    [fallbackMarker]: 'not-found',
    security: [],
    responses: problemResponse(document, 'not-found', {
      name: 'unknown_path',
      detail: 'No operation of the API has this path. Paths hang from the base URL, e.g. /v1/sessions.',
    }),
  };
  const deepest = catchAllDepth(document);
  for (let depth = 1; depth <= deepest; depth += 1) {
    const path = Array.from({ length: depth }, (_, index) => `/{segment${index + 1}}`).join('');
    // A contract path of the same shape keeps its place (its missing methods already answer 405).
    paths[path] ??= Object.fromEntries(routedMethods.map((method) => [method, structuredClone(operation)]));
  }
  document.paths = paths;
}
