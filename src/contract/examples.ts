/**
 * Every example of the contract together with the schema it must satisfy:
 * 1. `example` and each named `examples` entry (Example Object `value`, OAS 3.1 §4.8.19) of every
 *    Parameter, Header and Media Type Object, in requests and responses of paths, webhooks and components;
 * 2. each element of a schema's `examples` array (JSON Schema 2020-12 validation §9.5) and a schema's
 *    OAS `example` (§4.8.24.1, deprecated but still read by the tools).
 *
 * A `text/event-stream` Media Type's schema describes one event (toolchain notes, SSE), so its examples are
 * event objects and are checked like any other body.
 * @module
 */
import type { OpenApiDocument } from './load.js';
import { childPointer, resolve } from './pointer.js';
import { walkContract } from './walk.js';

export interface ContractExample {
  /** `media`, `parameter`, `header`: an example of that object; `schema`: an example inside a schema. */
  kind: 'media' | 'parameter' | 'header' | 'schema';
  /**
   * Where the example is given, e.g.
   * `#/paths/~1v1~1sessions/post/requestBody/content/application~1json/examples/variant_a`.
   */
  location: string;
  /** The schema the value must satisfy. It may be a `$ref`; follow it with `resolve` to find the target. */
  schemaPointer: string;
  /** The example's name for a named example. */
  name?: string;
  value: unknown;
  /** `false` when a named example has no inline `value` (an `externalValue` cannot be checked offline). */
  hasValue: boolean;
}

interface ExampleObject {
  value?: unknown;
}

export function collectExamples(document: OpenApiDocument): ContractExample[] {
  const { carriers, schemas } = walkContract(document);
  const examples: ContractExample[] = [];
  for (const { kind, pointer, node } of carriers) {
    if (node['schema'] === undefined) {
      continue;
    }
    const schemaPointer = childPointer(pointer, 'schema');
    if (node['example'] !== undefined) {
      const location = childPointer(pointer, 'example');
      examples.push({ kind, location, schemaPointer, value: node['example'], hasValue: true });
    }
    for (const name of Object.keys((node['examples'] as Record<string, unknown> | undefined) ?? {})) {
      const location = childPointer(pointer, 'examples', name);
      const example = resolve<ExampleObject>(document, location).node;
      examples.push({ kind, location, schemaPointer, name, value: example.value, hasValue: 'value' in example });
    }
  }
  for (const { pointer, node } of schemas) {
    if (Array.isArray(node['examples'])) {
      node['examples'].forEach((value, index) => {
        const location = childPointer(pointer, 'examples', index);
        examples.push({ kind: 'schema', location, schemaPointer: pointer, value, hasValue: true });
      });
    }
    if (node['example'] !== undefined) {
      const location = childPointer(pointer, 'example');
      examples.push({ kind: 'schema', location, schemaPointer: pointer, value: node['example'], hasValue: true });
    }
  }
  return examples;
}
