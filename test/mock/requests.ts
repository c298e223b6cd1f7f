/**
 * Valid requests of an operation built from the contract's own examples: path parameters from their
 * `example`, one request per named request-body example (or one without a body), and a bearer token
 * unless the operation opts out of security.
 */
import type { MediaTypeObject, OperationObject, ParameterObject, RequestBodyObject } from 'openapi-typescript';
import type { OpenApiDocument } from '../../src/contract/load.js';
import type { OperationEntry } from '../../src/contract/operations.js';
import { childPointer, resolve } from '../../src/contract/pointer.js';

/** `Bearer` capitalised: Prism matches the scheme case-sensitively (mocks/README.md). */
export const bearer = 'Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc';

export interface ExampleRequest {
  /** The request body example's name, or `undefined` for an operation without a body. */
  example: string | undefined;
  method: string;
  /** The path with its parameters filled in. */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function parametersOf(document: OpenApiDocument, entry: OperationEntry): ParameterObject[] {
  const pathItem = resolve<{ parameters?: unknown[] }>(document, entry.pathItemPointer);
  const at = (owner: string, list: unknown[] | undefined): ParameterObject[] =>
    (list ?? []).map((_, index) => resolve<ParameterObject>(document, childPointer(owner, 'parameters', index)).node);
  const shared = at(pathItem.pointer, pathItem.node.parameters);
  const own = at(entry.pointer, (entry.operation as OperationObject).parameters);
  // An operation's parameter replaces the path item's of the same name and location (OAS 3.1 §4.8.10).
  return [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
}

export function isAuthenticated(document: OpenApiDocument, entry: OperationEntry): boolean {
  const security = entry.operation.security ?? document.security ?? [];
  return !security.some((requirement) => Object.keys(requirement).length === 0);
}

export function exampleRequests(document: OpenApiDocument, entry: OperationEntry): ExampleRequest[] {
  let path = entry.path;
  for (const parameter of parametersOf(document, entry).filter((p) => p.in === 'path')) {
    path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(parameter.example)));
  }
  const headers: Record<string, string> = isAuthenticated(document, entry) ? { Authorization: bearer } : {};
  const method = entry.method.toUpperCase();
  if (entry.operation.requestBody === undefined) {
    return [{ example: undefined, method, path, headers, body: undefined }];
  }
  const requestBody = resolve<RequestBodyObject>(document, childPointer(entry.pointer, 'requestBody'));
  const media = childPointer(requestBody.pointer, 'content', 'application/json');
  const names = Object.keys(resolve<MediaTypeObject>(document, media).node.examples ?? {});
  return names.map((name) => ({
    example: name,
    method,
    path,
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(resolve<{ value: unknown }>(document, childPointer(media, 'examples', name)).node.value),
  }));
}
