// JSON Schema 2020-12 validation of examples against resolved schemas, with Ajv (the validator the
// conformance kit uses). Strict mode is off: OpenAPI schemas carry keywords Ajv does not know (`example`,
// `discriminator`, `x-provenance`, ...), and those must not fail the check.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export function createValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: false, allowUnionTypes: true, logger: false });
  addFormats(ajv);
  return ajv;
}

/**
 * Compiles a resolved schema. A resolved document may contain cycles (a recursive schema resolves to an
 * object that contains itself); Ajv needs a tree, so each cycle is cut with a `$ref` to the ancestor it
 * returns to (a JSON Pointer from the compiled root).
 * Returns the validate function, or throws Ajv's compile error (e.g. a `$ref` left unresolved).
 */
export function compileResolved(ajv, schema) {
  return ajv.compile(acyclic(schema));
}

function acyclic(root) {
  if (!hasCycle(root, new Set(), new Set())) return root;
  const copy = (node, pointer, stack) => {
    if (node === null || typeof node !== 'object') return node;
    const ancestor = stack.get(node);
    if (ancestor !== undefined) return { $ref: `#${ancestor}` };
    stack.set(node, pointer);
    const out = Array.isArray(node)
      ? node.map((item, index) => copy(item, `${pointer}/${index}`, stack))
      : Object.fromEntries(
          Object.entries(node).map(([key, value]) => [key, copy(value, `${pointer}/${escape(key)}`, stack)]),
        );
    stack.delete(node);
    return out;
  };
  return copy(root, '', new Map());
}

function hasCycle(node, stack, done) {
  if (node === null || typeof node !== 'object' || done.has(node)) return false;
  if (stack.has(node)) return true;
  stack.add(node);
  const found = Object.values(node).some((value) => hasCycle(value, stack, done));
  stack.delete(node);
  done.add(node);
  return found;
}

const escape = (key) => String(key).replaceAll('~', '~0').replaceAll('/', '~1');
