/**
 * How a variant schema tells itself apart from its siblings, in words. The wire format has no tag
 * field (openapi/README.md "Variants"), so a branch is recognised by its own shape: its type, the
 * members it requires or forbids, whether it is closed, and its constant (`const`, a one-value `enum`, a
 * fixed list), `pattern` and `format`.
 * @module
 */
import type { OpenApiDocument } from '../contract/load.js';
import { constantOf } from '../contract/constant.js';
import { childPointer, resolve } from '../contract/pointer.js';
import { componentName } from './labels.js';
import { code, codeList, textOf } from './markdown.js';

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function refName(value: unknown): string | undefined {
  return isSchema(value) && typeof value['$ref'] === 'string' ? componentName(value['$ref']) : undefined;
}

/**
 * What a `not` excludes: members that must be absent (`not: {required: [a]}`, or each one-member branch of
 * `not: {anyOf: [...]}`), and sets of members that must not all be present (a branch of several).
 */
function excluded(not: unknown): [string[], string[][]] {
  if (!isSchema(not)) {
    return [[], []];
  }
  const sets = (Array.isArray(not['anyOf']) ? not['anyOf'] : [not])
    .map((branch) => (isSchema(branch) ? ((branch['required'] as string[] | undefined) ?? []) : []))
    .filter((names) => names.length > 0);
  return [sets.filter((names) => names.length === 1).flat(), sets.filter((names) => names.length > 1)];
}

function ownTraits(schema: Schema): string[] {
  const traits: string[] = [];
  const type = schema['type'];
  if (type !== undefined) {
    traits.push(Array.isArray(type) ? type.join(' or ') : textOf(type));
  }
  const constant = constantOf(schema);
  if (constant !== undefined) {
    traits.push(`exactly ${code(JSON.stringify(constant.value))}`);
  }
  if (typeof schema['format'] === 'string') {
    traits.push(`format ${code(schema['format'])}`);
  }
  if (typeof schema['pattern'] === 'string') {
    traits.push(`matching ${code(schema['pattern'])}`);
  }
  const required = (schema['required'] as string[] | undefined) ?? [];
  if (required.length > 0) {
    traits.push(`requires ${codeList(required)}`);
  }
  const properties = isSchema(schema['properties']) ? schema['properties'] : {};
  const forbidden = Object.entries(properties)
    .filter(([, value]) => value === false)
    .map(([name]) => name);
  const [notRequired, notAllOf] = excluded(schema['not']);
  if (forbidden.length + notRequired.length > 0) {
    traits.push(`forbids ${codeList([...forbidden, ...notRequired])}`);
  }
  notAllOf.forEach((names) => traits.push(`not all of ${codeList(names)}`));
  for (const [name, value] of Object.entries(properties)) {
    const constant = constantOf(value);
    if (constant !== undefined) {
      traits.push(`${code(name)} is ${code(JSON.stringify(constant.value))}`);
    }
  }
  if (schema['additionalProperties'] === false || schema['unevaluatedProperties'] === false) {
    const members = Object.keys(properties).filter((name) => properties[name] !== false);
    traits.push(`closed: only ${codeList(members)}`);
  }
  if (schema['if'] !== undefined) {
    traits.push('a conditional rule (`if`/`then`)');
  }
  return traits;
}

/** A one-line account of the branch schema at `pointer`, e.g. "object; requires `mode`; closed: …". */
export function describeShape(document: OpenApiDocument, pointer: string): string {
  const { node, pointer: at } = resolve<Schema>(document, pointer);
  const traits = ownTraits(node);
  const extended: string[] = [];
  const parts = Array.isArray(node['allOf']) ? node['allOf'] : [];
  parts.forEach((part, index) => {
    const name = refName(part);
    if (name === undefined) {
      traits.push(...ownTraits(resolve<Schema>(document, childPointer(at, 'allOf', index)).node));
    } else {
      extended.push(name);
    }
  });
  const own = traits.join('; ');
  return extended.length === 0 ? own : `${codeList(extended)}${own === '' ? '' : `, plus: ${own}`}`;
}
