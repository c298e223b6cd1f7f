/**
 * The one value a schema admits, in any of the forms the contract writes it: `const`, a one-value `enum`,
 * or a fixed list (`prefixItems` of such values, with `minItems` = `maxItems` = their number). The
 * contract prefers the last two, which every common client generator reads (docs/designers.md
 * "Generators"); the house lint rule `generator-compatible` keeps it so.
 * @module
 */

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `{ value }` when `schema` admits exactly one value, else `undefined`. */
export function constantOf(schema: unknown): { value: unknown } | undefined {
  if (!isSchema(schema)) {
    return undefined;
  }
  if (schema['const'] !== undefined) {
    return { value: schema['const'] };
  }
  const values = schema['enum'];
  if (Array.isArray(values) && values.length === 1) {
    return { value: values[0] };
  }
  const items = schema['prefixItems'];
  if (Array.isArray(items) && schema['minItems'] === items.length && schema['maxItems'] === items.length) {
    const constants = items.map(constantOf);
    return constants.every((entry) => entry !== undefined)
      ? { value: constants.map((entry) => entry.value) }
      : undefined;
  }
  return undefined;
}
