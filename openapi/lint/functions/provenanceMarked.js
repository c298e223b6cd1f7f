// provenance-marked
//
// Checks that `x-provenance` is present with one of the allowed values (stated | variant | designed) on:
//   1. every operation under `paths` and `webhooks` (the rule's operation targets);
//   2. every component schema: each schema under `components.schemas`, and each schema written as a file
//      of its own and reached by `$ref` (the split contract's `components/schemas/<Name>.yaml`). The rule's
//      schema targets are the schema positions of the document (media types, parameters, headers,
//      `components.schemas`, the MCP tool schemas); every subschema below them is walked, and the named
//      ones are checked. Inline subschemas are not: a property inherits its schema's provenance.
// Why: every statement of the contract says whether the seed states it, is one of its published variants,
// or was designed where the seed says "not shown" (openapi/README.md "Provenance").
import { createRulesetFunction } from '@stoplight/spectral-core';
import { walkSchema } from '../lib/schemaWalk.js';
import { componentNameOf } from '../lib/source.js';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Schemas already checked, per resolved document: a shared component is walked once, not at every use. */
const checkedByDocument = new WeakMap();

function checked(context) {
  const key = context.documentInventory.resolved;
  let set = checkedByDocument.get(key);
  if (set === undefined) {
    set = new WeakSet();
    checkedByDocument.set(key, set);
  }
  return set;
}

function problem(node, what, path, values) {
  const value = node['x-provenance'];
  if (values.includes(value)) return null;
  const allowed = values.join(', ');
  return value === undefined
    ? { message: `${what} has no \`x-provenance\`; mark it ${allowed}.`, path }
    : {
        message: `${what} has \`x-provenance: ${JSON.stringify(value)}\`; it must be one of ${allowed}.`,
        path: [...path, 'x-provenance'],
      };
}

export default createRulesetFunction(
  {
    input: { type: 'object' },
    options: {
      type: 'object',
      properties: { values: { type: 'array', minItems: 1, items: { type: 'string' } } },
      required: ['values'],
      additionalProperties: false,
    },
  },
  function provenanceMarked(target, { values }, context) {
    const { path } = context;
    if (path.length === 3 && (path[0] === 'paths' || path[0] === 'webhooks') && METHODS.has(String(path[2]))) {
      const what = `${String(path[2]).toUpperCase()} ${String(path[1])}${path[0] === 'webhooks' ? ' (webhook)' : ''}`;
      const result = problem(target, `Operation ${what}`, path, values);
      return result === null ? [] : [result];
    }
    const results = [];
    const seen = checked(context);
    walkSchema(target, path, (schema, at) => {
      if (seen.has(schema)) return false;
      seen.add(schema);
      const name = componentNameOf(context, at);
      if (name === null) return true;
      const result = problem(schema, `Schema ${name}`, at, values);
      if (result !== null) results.push(result);
      return true;
    });
    return results;
  },
);
