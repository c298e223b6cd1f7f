/**
 * The contract as the suite reads it: the bundled document, its validator, and the operation each request
 * addressed. Built on src/contract; nothing here re-reads the document differently.
 * @module
 */
import { apiVersionCatalogue } from '../../src/contract/extensions.js';
import { loadContract, type OpenApiDocument } from '../../src/contract/load.js';
import { listOperations, type OperationEntry } from '../../src/contract/operations.js';
import { problemTypes, type ProblemTypeEntry } from '../../src/contract/problem-types.js';
import { createContractValidator, type ContractValidator } from '../../src/contract/validator.js';

export interface Route {
  template: string;
  pattern: RegExp;
  /** Templated segments; literal paths win over templated ones (`/v1/sessions/plan` over `/{id}`). */
  parameters: number;
  operations: Map<string, OperationEntry>;
}

export interface Contract {
  document: Readonly<OpenApiDocument>;
  validator: ContractValidator;
  routes: Route[];
  problemTypes: ProblemTypeEntry[];
  problemBaseUri: string;
  /** The supported date versions, current first (`x-api-versions`). */
  apiVersions: string[];
  /** The route a request path addresses, or `undefined` for a path the API does not have. */
  route(path: string): Route | undefined;
  /** The operation of a method and path, or `undefined`. */
  operation(method: string, path: string): OperationEntry | undefined;
}

function routeOf(template: string): Omit<Route, 'operations'> {
  const parameters = (template.match(/\{[^}]+\}/g) ?? []).length;
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return { template, pattern: new RegExp(`^${source}$`), parameters };
}

let cached: Contract | undefined;

/** The bundled contract of this package, loaded once. */
export function loadSuiteContract(): Contract {
  cached ??= buildContract(loadContract());
  return cached;
}

export function buildContract(document: Readonly<OpenApiDocument>): Contract {
  const validator = createContractValidator(document);
  const byTemplate = new Map<string, Route>();
  for (const entry of listOperations(document).filter((operation) => operation.source === 'paths')) {
    const route = byTemplate.get(entry.path) ?? { ...routeOf(entry.path), operations: new Map() };
    route.operations.set(entry.method.toUpperCase(), entry);
    byTemplate.set(entry.path, route);
  }
  const routes = [...byTemplate.values()].sort((a, b) => a.parameters - b.parameters);
  const catalog = problemTypes(document);
  const versions = apiVersionCatalogue(document);
  const route = (path: string): Route | undefined => routes.find((candidate) => candidate.pattern.test(path));
  return {
    document,
    validator,
    routes,
    problemTypes: catalog.types,
    problemBaseUri: catalog.base_uri,
    apiVersions: [versions.current, ...versions.supported.filter((version) => version !== versions.current)],
    route,
    operation: (method, path) => route(path)?.operations.get(method.toUpperCase()),
  };
}

/** The path of a request URL relative to the base URL (the base may carry a path prefix). */
export function pathRelativeTo(baseUrl: string, url: string): string {
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const path = new URL(url).pathname;
  return basePath !== '' && path.startsWith(basePath) ? path.slice(basePath.length) || '/' : path;
}
