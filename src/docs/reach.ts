/**
 * Which components an operation depends on: every `$ref` target reachable from its parameters, request
 * body and responses, followed transitively. Example values are data, not structure, and are skipped.
 * @module
 */
import type { OpenApiDocument } from '../contract/load.js';
import { listOperations, type OperationEntry } from '../contract/operations.js';
import { valueAt } from '../contract/pointer.js';

function referencesIn(node: unknown, found: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((item) => referencesIn(item, found));
    return;
  }
  if (node === null || typeof node !== 'object') {
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      found.push(value);
    } else if (key !== 'example' && key !== 'examples') {
      referencesIn(value, found);
    }
  }
}

/** The `$ref` targets (`#/components/...`) the operation reaches, directly or through other components. */
export function reachedComponents(document: OpenApiDocument, entry: OperationEntry): Set<string> {
  const reached = new Set<string>();
  const pending: string[] = [];
  referencesIn(entry.operation, pending);
  referencesIn((valueAt(document, entry.pathItemPointer) as { parameters?: unknown }).parameters, pending);
  for (let target = pending.pop(); target !== undefined; target = pending.pop()) {
    if (!reached.has(target)) {
      reached.add(target);
      referencesIn(valueAt(document, target), pending);
    }
  }
  return reached;
}

export interface ReachIndex {
  /** The operations that reach the component at `pointer`, in document order. */
  operationsReaching(pointer: string): OperationEntry[];
}

/** Computes every operation's reach once, for many lookups. */
export function reachIndex(document: OpenApiDocument): ReachIndex {
  const reaches = listOperations(document).map((entry) => ({ entry, reached: reachedComponents(document, entry) }));
  return {
    operationsReaching: (pointer) => reaches.filter(({ reached }) => reached.has(pointer)).map(({ entry }) => entry),
  };
}
