// oneof-exclusive
//
// Checks every schema with a `oneOf` (anywhere in the document):
//   1. Named branches. Each branch is written as a `$ref` (to a named schema), never inline. Spectral
//      resolves references before rules run, so the branch is looked up in the file it was written in.
//   2. Exclusive examples. Each branch's examples validate against exactly one branch, which is their
//      own. The examples considered are:
//      a. the branch schema's own JSON Schema `examples` array: each entry must validate against its own
//         branch and against no other;
//      b. the named examples of every media type in the document (`content.*.examples.*.value`, in paths,
//         webhooks and components) whose value validates against at least one branch, i.e. the examples
//         that belong to this `oneOf` when it is read as `anyOf`: each must validate against exactly one
//         branch. (Only whole example values are tried; a value nested inside a larger example is not.)
//      Validation is JSON Schema 2020-12 (Ajv 2020 with ajv-formats, strict mode off) against the
//      resolved branch schemas.
//   3. Covered branches. Each branch has at least one example that proves it: an `examples` entry of its
//      own, or a media-type example that validates against it alone.
// Why: the seed's variants carry no tag field, so they must exclude each other by their own shape
// (openapi/README.md "Variants"); Prism, Ajv and Redocly all enforce `oneOf` as "exactly one", and the
// examples are the proof that real payloads are not ambiguous.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { compileResolved, createValidator } from '../lib/jsonSchema.js';
import { mediaExamples } from '../lib/mediaExamples.js';
import { sourceOf } from '../lib/source.js';

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Per resolved document: one Ajv, compiled branches, the media-type examples and the oneOfs done. */
const stateByDocument = new WeakMap();

function stateOf(context) {
  const document = context.documentInventory.resolved;
  let state = stateByDocument.get(document);
  if (state === undefined) {
    state = { ajv: createValidator(), compiled: new WeakMap(), examples: null, done: new WeakSet() };
    stateByDocument.set(document, state);
  }
  state.examples ??= mediaExamples(document);
  return state;
}

/** `{ validate }` or `{ error }` for a resolved branch schema, compiled once. */
function compiled(state, schema) {
  if (typeof schema === 'boolean') return { validate: () => schema };
  let entry = state.compiled.get(schema);
  if (entry === undefined) {
    try {
      entry = { validate: compileResolved(state.ajv, schema) };
    } catch (error) {
      entry = { error: error instanceof Error ? error.message : String(error) };
    }
    state.compiled.set(schema, entry);
  }
  return entry;
}

const label = (branch, index) => (isObject(branch) && typeof branch.title === 'string' ? branch.title : `#${index}`);
const list = (names) => names.map((name) => `\`${name}\``).join(', ');

export default createRulesetFunction(
  { input: { type: 'object' }, options: null },
  function oneofExclusive(schema, _options, context) {
    if (!Array.isArray(schema.oneOf)) return [];
    const state = stateOf(context);
    // The resolved document shares one object per referenced schema: check it at its first use only.
    if (state.done.has(schema)) return [];
    state.done.add(schema);

    const at = context.path;
    const branches = schema.oneOf;
    const name = typeof schema.title === 'string' ? schema.title : 'oneOf';
    const names = branches.map(label);
    const results = [];

    // 1. Every branch is a `$ref`, as written in its source file.
    const source = sourceOf(context, [...at, 'oneOf']);
    if (source !== null && Array.isArray(source.node) && source.node.length === branches.length) {
      source.node.forEach((raw, index) => {
        if (isObject(raw) && typeof raw.$ref === 'string') return;
        results.push({
          message: `Branch ${index} of ${name} is written inline; every \`oneOf\` branch must be a \`$ref\` to a named schema.`,
          path: [...at, 'oneOf', index],
        });
      });
    }

    const validators = branches.map((branch) => compiled(state, branch));
    validators.forEach((entry, index) => {
      if (entry.error === undefined) return;
      results.push({
        message: `Branch ${names[index]} of ${name} cannot be compiled for the exclusivity check: ${entry.error}`,
        path: [...at, 'oneOf', index],
      });
    });
    if (validators.some((entry) => entry.error !== undefined)) return results;
    const matches = (value) => validators.flatMap((entry, index) => (entry.validate(value) ? [index] : []));
    const proven = new Set();

    // 2a. The branches' own `examples`.
    branches.forEach((branch, index) => {
      if (!isObject(branch) || !Array.isArray(branch.examples)) return;
      branch.examples.forEach((example, position) => {
        const matched = matches(example);
        if (matched.length === 1 && matched[0] === index) {
          proven.add(index);
          return;
        }
        const others = matched.filter((other) => other !== index).map((other) => names[other]);
        const message = !matched.includes(index)
          ? `Example ${position} of ${names[index]} does not validate against ${names[index]} itself.`
          : `Example ${position} of ${names[index]} also validates against ${list(others)}; the branches of ${name} must exclude each other.`;
        results.push({ message, path: [...at, 'oneOf', index, 'examples', position] });
      });
    });

    // 2b. Named media-type examples that belong to this oneOf.
    for (const example of state.examples) {
      const matched = matches(example.value);
      if (matched.length === 1) proven.add(matched[0]);
      if (matched.length < 2) continue;
      results.push({
        message: `Example \`${example.name}\` validates against ${matched.length} branches of ${name} (${list(matched.map((index) => names[index]))}); it must match exactly one.`,
        path: example.path,
      });
    }

    // 3. Every branch is proven by at least one example.
    branches.forEach((_branch, index) => {
      if (proven.has(index)) return;
      results.push({
        message: `Branch ${names[index]} of ${name} has no example that matches it alone; add one to its \`examples\` or a named media-type example.`,
        path: [...at, 'oneOf', index],
      });
    });
    return results;
  },
);
