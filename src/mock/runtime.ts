/**
 * Everything the front door needs to answer for one mock document, compiled once: the route table,
 * Prism on the contract's operations, the problem catalogue, the headers of the routing problems, the
 * request body limit and the media types each operation takes. A watched contract swaps the whole
 * runtime at once, so a request is answered by one document from start to end.
 * @module
 */
import { apiVersionCatalogue, contractLimits } from '../contract/extensions.js';
import type { OpenApiDocument } from '../contract/load.js';
import { childPointer, resolve } from '../contract/pointer.js';
import { problemTypes, type ProblemTypes } from '../contract/problem-types.js';
import { createEngine, prismOperations, type Engine, type EngineOptions } from './engine.js';
import { compileRoutes, type RouteTable } from './routes.js';

export interface MockRuntime {
  document: OpenApiDocument;
  routes: RouteTable;
  engine: Engine;
  catalogue: ProblemTypes;
  /** The headers of the contract's `NotFound` response at their examples, the version at the current one: every problem of the front door has them. */
  problemHeaders: Record<string, string>;
  /** The contract's request body limit (`x-limits.request_body_max_bytes`, designed). */
  bodyLimit: number;
  /** The request media types of each operation (`METHOD template`) that takes a body. */
  requestMedia: ReadonlyMap<string, string[]>;
}

type Node = Record<string, unknown>;

function headerExamples(document: OpenApiDocument): Record<string, string> {
  const notFound = '#/components/responses/NotFound';
  const headers: Record<string, string> = {};
  for (const name of Object.keys(resolve<Node>(document, notFound).node['headers'] ?? {})) {
    const value = resolve<Node>(document, childPointer(notFound, 'headers', name)).node['example'];
    if (typeof value === 'string') {
      headers[name.toLowerCase()] = value;
    }
  }
  return headers;
}

/** The current version in its header (`x-api-versions`, seed "Versioning" 4), whatever the header's example says. */
function versionHeader(document: OpenApiDocument): Record<string, string> {
  const versions = apiVersionCatalogue(document);
  return { [versions.header.toLowerCase()]: versions.current };
}

function requestMediaTypes(document: OpenApiDocument, routes: RouteTable): Map<string, string[]> {
  const media = new Map<string, string[]>();
  for (const key of routes.keys) {
    const [method = '', template = ''] = key.split(' ');
    const operation = childPointer('#/paths', template, method.toLowerCase());
    if (resolve<Node>(document, operation).node['requestBody'] !== undefined) {
      const body = resolve<Node>(document, childPointer(operation, 'requestBody')).node;
      media.set(key, Object.keys((body['content'] as Node | undefined) ?? {}));
    }
  }
  return media;
}

/** Compiles the runtime of `document` (the mock document: the contract's operations only). */
export async function compileRuntime(document: OpenApiDocument, options: EngineOptions): Promise<MockRuntime> {
  const routes = compileRoutes(document);
  const operations = await prismOperations(document);
  const missing = routes.keys.filter((key) => !operations.has(key));
  if (missing.length > 0) {
    throw new Error(`Prism did not read these operations of the contract: ${missing.join(', ')}`);
  }
  return {
    document,
    routes,
    engine: createEngine(operations, options),
    catalogue: problemTypes(document),
    problemHeaders: { ...headerExamples(document), ...versionHeader(document) },
    bodyLimit: contractLimits(document).requestBodyMaxBytes,
    requestMedia: requestMediaTypes(document, routes),
  };
}
