/**
 * A walk over the places of the contract that describe a value with a schema:
 * 1. the Parameter, Header and Media Type Objects ("carriers": each has a `schema` and may carry
 *    `example`/`examples`, OAS 3.1 §4.8.12, §4.8.21, §4.8.14), reached from `paths`, `webhooks`,
 *    callbacks and `components`, each visited once however often it is referenced;
 * 2. every schema and subschema (JSON Schema 2020-12 §10 applicators), from `components.schemas` and
 *    from the carriers' inline schemas. A `$ref` is not followed: its target is visited where it lives.
 * @module
 */
import type { OpenApiDocument } from './load.js';
import { httpMethods } from './operations.js';
import { childPointer, pointerOf, resolve, valueAt } from './pointer.js';

type Node = Record<string, unknown>;

export interface Carrier {
  kind: 'parameter' | 'header' | 'media';
  pointer: string;
  node: Node;
}

export interface SchemaNode {
  pointer: string;
  node: Node;
}

export interface ContractWalk {
  carriers: Carrier[];
  schemas: SchemaNode[];
}

const schemaMaps = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
const schemaLists = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const singleSchemas = [
  'additionalProperties',
  'items',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function keysOf(value: unknown): string[] {
  return isNode(value) ? Object.keys(value) : [];
}

export function walkContract(document: OpenApiDocument): ContractWalk {
  const carriers: Carrier[] = [];
  const visited = new Set<string>();

  function nodeAt(pointer: string): Node {
    const value = valueAt(document, pointer);
    return isNode(value) ? value : {};
  }

  function visitCarrier(kind: Carrier['kind'], at: string): void {
    const { node, pointer } = resolve<Node>(document, at);
    if (visited.has(pointer)) {
      return;
    }
    visited.add(pointer);
    carriers.push({ kind, pointer, node });
    // A parameter or header described by `content` instead of `schema` (OAS 3.1 §4.8.12.4).
    for (const mediaType of keysOf(node['content'])) {
      visitCarrier('media', childPointer(pointer, 'content', mediaType));
    }
    // Headers of a multipart part (Encoding Object, §4.8.15).
    for (const property of keysOf(node['encoding'])) {
      const encoding = childPointer(pointer, 'encoding', property);
      for (const header of keysOf(nodeAt(encoding)['headers'])) {
        visitCarrier('header', childPointer(encoding, 'headers', header));
      }
    }
  }

  function visitContentHolder(at: string): void {
    const { node, pointer } = resolve<Node>(document, at);
    for (const name of keysOf(node['headers'])) {
      visitCarrier('header', childPointer(pointer, 'headers', name));
    }
    for (const mediaType of keysOf(node['content'])) {
      visitCarrier('media', childPointer(pointer, 'content', mediaType));
    }
  }

  function visitPathItem(at: string): void {
    const { node: pathItem, pointer } = resolve<Node>(document, at);
    (pathItem['parameters'] as unknown[] | undefined)?.forEach((_, index) => {
      visitCarrier('parameter', childPointer(pointer, 'parameters', index));
    });
    for (const method of httpMethods) {
      if (pathItem[method] === undefined) {
        continue;
      }
      const operation = resolve<Node>(document, childPointer(pointer, method));
      (operation.node['parameters'] as unknown[] | undefined)?.forEach((_, index) => {
        visitCarrier('parameter', childPointer(operation.pointer, 'parameters', index));
      });
      if (operation.node['requestBody'] !== undefined) {
        visitContentHolder(childPointer(operation.pointer, 'requestBody'));
      }
      for (const status of keysOf(operation.node['responses'])) {
        visitContentHolder(childPointer(operation.pointer, 'responses', status));
      }
      // A Callback Object maps runtime expressions to Path Items (§4.8.18).
      for (const name of keysOf(operation.node['callbacks'])) {
        const callback = resolve<Node>(document, childPointer(operation.pointer, 'callbacks', name));
        for (const expression of keysOf(callback.node)) {
          visitPathItem(childPointer(callback.pointer, expression));
        }
      }
    }
  }

  for (const source of ['paths', 'webhooks'] as const) {
    for (const key of keysOf(document[source])) {
      visitPathItem(pointerOf(source, key));
    }
  }
  const components = (document.components ?? {}) as Node;
  for (const name of keysOf(components['pathItems'])) {
    visitPathItem(pointerOf('components', 'pathItems', name));
  }
  for (const name of keysOf(components['parameters'])) {
    visitCarrier('parameter', pointerOf('components', 'parameters', name));
  }
  for (const name of keysOf(components['headers'])) {
    visitCarrier('header', pointerOf('components', 'headers', name));
  }
  for (const kind of ['responses', 'requestBodies']) {
    for (const name of keysOf(components[kind])) {
      visitContentHolder(pointerOf('components', kind, name));
    }
  }

  const roots = [
    ...keysOf(components['schemas']).map((name) => pointerOf('components', 'schemas', name)),
    ...carriers
      .filter((carrier) => isNode(carrier.node['schema']))
      .map((carrier) => childPointer(carrier.pointer, 'schema')),
  ];
  return { carriers, schemas: roots.flatMap((root) => subschemas(document, root)) };
}

/** The schema at `root` and all its subschemas, depth first. */
function subschemas(document: OpenApiDocument, root: string): SchemaNode[] {
  const found: SchemaNode[] = [];
  const stack = [root];
  for (let pointer = stack.pop(); pointer !== undefined; pointer = stack.pop()) {
    const node = valueAt(document, pointer);
    if (!isNode(node) || '$ref' in node) {
      continue;
    }
    found.push({ pointer, node });
    for (const keyword of schemaMaps) {
      stack.push(...keysOf(node[keyword]).map((key) => childPointer(pointer, keyword, key)));
    }
    for (const keyword of schemaLists) {
      const list = node[keyword];
      if (Array.isArray(list)) {
        stack.push(...list.map((_, index) => childPointer(pointer, keyword, index)));
      }
    }
    for (const keyword of singleSchemas) {
      if (isNode(node[keyword])) {
        stack.push(childPointer(pointer, keyword));
      }
    }
  }
  return found;
}
