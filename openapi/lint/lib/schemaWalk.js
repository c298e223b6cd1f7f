// Walks a JSON Schema (2020-12, as used by OpenAPI 3.1) and its subschemas, in document order.
// Only schema positions are entered: literal data (`examples`, `default`, `const`, `enum`) is never
// mistaken for a schema, and a property named like a keyword (`properties: {examples: ...}`) still is one.

const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_VALUES = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
];

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Calls `visit(schema, path)` for `schema` and each subschema below it (objects only). `visit` may return
 * `false` to skip what lies below that schema. Cycles of the resolved document are walked once.
 */
export function walkSchema(schema, path, visit, ancestors = new Set()) {
  if (!isObject(schema) || ancestors.has(schema)) return;
  if (visit(schema, path) === false) return;
  ancestors.add(schema);
  for (const key of SCHEMA_MAPS) {
    if (!isObject(schema[key])) continue;
    for (const [name, sub] of Object.entries(schema[key])) walkSchema(sub, [...path, key, name], visit, ancestors);
  }
  for (const key of SCHEMA_LISTS) {
    if (!Array.isArray(schema[key])) continue;
    schema[key].forEach((sub, index) => walkSchema(sub, [...path, key, index], visit, ancestors));
  }
  for (const key of SCHEMA_VALUES) walkSchema(schema[key], [...path, key], visit, ancestors);
  ancestors.delete(schema);
}
