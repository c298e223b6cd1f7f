/**
 * The schemas of an event stream's events. A `text/event-stream` response describes one event at a time:
 * a `oneOf` of per-event objects (`{event, id, retry?, data}`), each naming its event with an `event`
 * `const` and the JSON its `data` carries with a `contentSchema` (openapi/README.md, the SSE operations).
 * Ajv treats `contentSchema` as an annotation only (JSON Schema 2020-12 §8.5), so whoever checks a stream
 * applies it to the parsed data.
 * @module
 */
import type { OpenApiDocument } from './load.js';
import { childPointer, resolve } from './pointer.js';

type Node = Record<string, unknown>;

/** The per-event branches of a stream schema (the schema itself when it is not a `oneOf`). */
function branchesOf(document: OpenApiDocument, schemaPointer: string): Array<{ pointer: string; node: Node }> {
  const schema = resolve<Node>(document, schemaPointer);
  return Array.isArray(schema.node['oneOf'])
    ? (schema.node['oneOf'] as unknown[]).map((_, index) =>
        resolve<Node>(document, childPointer(schema.pointer, 'oneOf', index)),
      )
    : [schema];
}

/** The pointer of the `contentSchema` of the event named `eventName` in a stream schema, or `undefined`. */
export function eventDataSchema(
  document: OpenApiDocument,
  schemaPointer: string,
  eventName: string,
): string | undefined {
  for (const branch of branchesOf(document, schemaPointer)) {
    const properties = branch.node['properties'] as Record<string, Node> | undefined;
    if (properties?.['event']?.['const'] === eventName && properties['data']?.['contentSchema'] !== undefined) {
      return childPointer(branch.pointer, 'properties', 'data', 'contentSchema');
    }
  }
  return undefined;
}

/** The event names a stream schema documents: the `event` const of each branch. */
export function eventNames(document: OpenApiDocument, schemaPointer: string): string[] {
  return branchesOf(document, schemaPointer).flatMap((branch) => {
    const name = (branch.node['properties'] as Record<string, Node> | undefined)?.['event']?.['const'];
    return typeof name === 'string' ? [name] : [];
  });
}
