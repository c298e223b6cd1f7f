/**
 * The bundled document as committed text: a stable order and one serialisation for YAML and for JSON.
 * @module
 */
import { stringify } from 'yaml';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function sortedByKey(map: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Returns the document with every `components` map sorted by name. Redocly adds components in the order
 * it meets their references, so a new path would reorder unrelated components and blur the diff of the
 * committed bundle; everything else keeps the author's order.
 */
export function normalise(document: JsonObject): JsonObject {
  const { components } = document;
  if (!isObject(components)) {
    return document;
  }
  const sorted = Object.fromEntries(
    Object.entries(components).map(([kind, map]) => [kind, isObject(map) ? sortedByKey(map) : map]),
  );
  return { ...document, components: sorted };
}

/**
 * YAML that reads the same under YAML 1.1 and 1.2: serialising as 1.1 quotes strings such as
 * `'2026-10-01'` and `'yes'` that a 1.1 parser (js-yaml, some mock servers) would turn into dates or
 * booleans. No line folding, so the text diffs line by line.
 */
export function toYaml(document: JsonObject): string {
  return stringify(document, { version: '1.1', singleQuote: true, lineWidth: 0 });
}

export function toJson(document: JsonObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
