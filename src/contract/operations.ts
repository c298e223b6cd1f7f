/**
 * The operations of the contract: every method of every path item under `paths` and `webhooks`
 * (OAS 3.1 §4.8.1 `webhooks`: a map of Path Item Objects keyed by event name).
 * @module
 */
import type { OperationObject, PathItemObject } from './openapi-objects.js';
import type { OpenApiDocument } from './load.js';
import { childPointer, pointerOf, resolve } from './pointer.js';

/** The fixed fields of a Path Item Object that hold operations (OAS 3.1 §4.8.9). */
export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof httpMethods)[number];

export interface OperationEntry {
  /** `paths` for an API operation, `webhooks` for a request the service sends. */
  source: 'paths' | 'webhooks';
  /** The path template (`/v1/sessions/{id}`), or the webhook's event name (`session.complete`). */
  path: string;
  method: HttpMethod;
  operationId: string | undefined;
  operation: OperationObject;
  /** Where the operation lives in the document, e.g. `#/paths/~1v1~1health/get`. */
  pointer: string;
  /** Where its Path Item lives (holds the parameters shared by all its methods). */
  pathItemPointer: string;
}

function* entriesOf(document: OpenApiDocument, source: OperationEntry['source']): Generator<OperationEntry> {
  for (const path of Object.keys(document[source] ?? {})) {
    const pathItem = resolve<PathItemObject>(document, pointerOf(source, path));
    for (const method of httpMethods) {
      if (pathItem.node[method] === undefined) {
        continue;
      }
      const { node: operation, pointer } = resolve<OperationObject>(document, childPointer(pathItem.pointer, method));
      yield {
        source,
        path,
        method,
        operationId: operation.operationId,
        operation,
        pointer,
        pathItemPointer: pathItem.pointer,
      };
    }
  }
}

/** Every operation, those of `paths` first, each group in document order. */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  return [...entriesOf(document, 'paths'), ...entriesOf(document, 'webhooks')];
}

/** The operation with this `operationId` (unique per OAS 3.1 §4.8.10), or `undefined`. */
export function findOperation(document: OpenApiDocument, operationId: string): OperationEntry | undefined {
  return listOperations(document).find((entry) => entry.operationId === operationId);
}
