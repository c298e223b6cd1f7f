/**
 * Example requests built from the contract: the path with each parameter's example and the first named
 * example of the request body. Used to call every operation where only one thing (the credentials) is wrong.
 * @module
 */
import type {
  MediaTypeObject,
  ParameterObject,
  PathItemObject,
  RequestBodyObject,
} from '../../src/contract/openapi-objects.js';
import type { OperationEntry } from '../../src/contract/operations.js';
import { childPointer, resolve } from '../../src/contract/pointer.js';
import type { Contract } from './contract.js';

export interface ExampleRequest {
  method: string;
  path: string;
  body?: unknown;
}

function parametersOf(contract: Contract, operation: OperationEntry): ParameterObject[] {
  const pathItem = resolve<PathItemObject>(contract.document, operation.pathItemPointer);
  const shared = (pathItem.node.parameters ?? []).map(
    (_, index) => resolve<ParameterObject>(contract.document, childPointer(pathItem.pointer, 'parameters', index)).node,
  );
  const own = (operation.operation.parameters ?? []).map(
    (_, index) =>
      resolve<ParameterObject>(contract.document, childPointer(operation.pointer, 'parameters', index)).node,
  );
  return [...shared, ...own];
}

function exampleOfMedia(contract: Contract, pointer: string): unknown {
  const media = resolve<MediaTypeObject>(contract.document, pointer).node;
  if (media.example !== undefined) {
    return media.example;
  }
  const first = Object.keys(media.examples ?? {})[0];
  return first === undefined
    ? undefined
    : resolve<{ value?: unknown }>(contract.document, childPointer(pointer, 'examples', first)).node.value;
}

export function exampleRequest(contract: Contract, operation: OperationEntry): ExampleRequest {
  const parameters = parametersOf(contract, operation).filter((parameter) => parameter.in === 'path');
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const example = parameters.find((parameter) => parameter.name === name)?.example;
    return encodeURIComponent(typeof example === 'string' || typeof example === 'number' ? String(example) : 'example');
  });
  const requestBody = operation.operation.requestBody;
  if (requestBody === undefined) {
    return { method: operation.method.toUpperCase(), path };
  }
  const body = resolve<RequestBodyObject>(contract.document, childPointer(operation.pointer, 'requestBody'));
  const json =
    body.node.content?.['application/json'] === undefined
      ? undefined
      : exampleOfMedia(contract, childPointer(body.pointer, 'content', 'application/json'));
  return { method: operation.method.toUpperCase(), path, body: json ?? {} };
}

/** Operations that need credentials (a `security` requirement, the root's by default). */
export function authenticatedOperations(contract: Contract): OperationEntry[] {
  return contract.routes
    .flatMap((route) => [...route.operations.values()])
    .filter((operation) => !(Array.isArray(operation.operation.security) && operation.operation.security.length === 0));
}
