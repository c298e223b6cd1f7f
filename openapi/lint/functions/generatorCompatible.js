// generator-compatible
//
// Checks, in every schema and the schemas below it, for the constructs that break a common client
// generator, and names the generator and the equivalent form that it reads (docs/designers.md "Generators"):
// - a boolean schema in a schema position (`"id": false`): openapi-python-client refuses the document;
// - a `const` that is a list or an object: openapi-python-client reads `const` only as a scalar;
// - an `allOf` of two or more parts, one of them not an object schema (`allOf` of a string and an `enum`):
//   openapi-python-client cannot take `allOf` of a non-object and drops every operation that uses it;
// - a member given a `const` in one `allOf` part and declared by another part: openapi-python-client
//   cannot merge a `const` with the other part's schema and skips the whole schema.
// (`additionalProperties: false` and its kin are booleans every generator reads; they are not reported.)
// Why: the contract is authoritative only if the teams who consume it can generate a client from it.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { walkSchema } from '../lib/schemaWalk.js';

const BOOLEAN_READ = new Set(['additionalProperties', 'unevaluatedProperties', 'unevaluatedItems']);
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_VALUES = ['items', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema'];

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const isObjectSchema = (schema) =>
  isObject(schema) && (schema.type === 'object' || isObject(schema.properties) || Array.isArray(schema.allOf));

function booleanSchemas(schema, path) {
  const found = [];
  for (const key of SCHEMA_MAPS) {
    if (!isObject(schema[key])) continue;
    for (const [name, sub] of Object.entries(schema[key])) {
      if (typeof sub === 'boolean') found.push([...path, key, name]);
    }
  }
  for (const key of SCHEMA_LISTS) {
    if (Array.isArray(schema[key]))
      schema[key].forEach((sub, i) => typeof sub === 'boolean' && found.push([...path, key, i]));
  }
  for (const key of SCHEMA_VALUES)
    if (!BOOLEAN_READ.has(key) && typeof schema[key] === 'boolean') found.push([...path, key]);
  return found.map((at) => ({
    message:
      'A boolean schema breaks openapi-python-client ("Failed to parse OpenAPI document"); write a member that ' +
      'must be absent as `not: {required: [name]}` on its object, and leave out a `true`.',
    path: at,
  }));
}

function constMergedInAllOf(schema, path) {
  if (!Array.isArray(schema.allOf)) return [];
  const found = [];
  schema.allOf.forEach((part, index) => {
    if (!isObject(part) || !isObject(part.properties)) return;
    for (const [name, sub] of Object.entries(part.properties)) {
      if (!isObject(sub) || sub.const === undefined) continue;
      const declaredElsewhere = schema.allOf.some(
        (other, j) => j !== index && isObject(other) && isObject(other.properties) && name in other.properties,
      );
      if (declaredElsewhere) {
        found.push({
          message:
            `\`${name}\` has a \`const\` in one \`allOf\` part and a schema in another, which openapi-python-client ` +
            'cannot merge (it skips the schema); write the value as a one-value `enum`.',
          path: [...path, 'allOf', index, 'properties', name, 'const'],
        });
      }
    }
  });
  return found;
}

function check(schema, path) {
  const found = [...booleanSchemas(schema, path), ...constMergedInAllOf(schema, path)];
  if (schema.const !== undefined && typeof schema.const === 'object' && schema.const !== null) {
    found.push({
      message:
        'A list or object `const` breaks openapi-python-client, which reads `const` only as a string, number or ' +
        'boolean; write a fixed list as `prefixItems` of one-value `enum`s with `minItems` and `maxItems` equal to its length.',
      path: [...path, 'const'],
    });
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 1 && !schema.allOf.every(isObjectSchema)) {
    found.push({
      message:
        '`allOf` of a part that is not an object schema breaks openapi-python-client ("Cannot take allOf a ' +
        'non-object"; it drops every operation using it); write one flat schema with its type, pattern and `enum`.',
      path: [...path, 'allOf'],
    });
  }
  return found;
}

// The resolved document shares one object for every use of a component: each is checked once, where it is
// first reached (Spectral reports a finding in the file the schema was written in).
const checked = new WeakSet();

export default createRulesetFunction(
  { input: null, options: null },
  function generatorCompatible(schema, _options, context) {
    const results = [];
    walkSchema(schema, context.path, (node, path) => {
      if (checked.has(node)) return false;
      checked.add(node);
      results.push(...check(node, path));
    });
    return results;
  },
);
