/**
 * Compares a schema of the base contract with the same schema in the revision, in one direction (request
 * or response, see rules.ts), following `$ref`s on both sides and walking properties, items, variants and
 * `allOf` parts. Breaking changes and every other change are reported alike; rules.ts classes them.
 * @module
 */
import type { OpenApiDocument } from '../../contract/load.js';
import { childPointer, resolve } from '../../contract/pointer.js';
import { componentName } from '../labels.js';
import type { ChangePlace, ChangeRule, Direction } from './rules.js';

type Schema = Record<string, unknown> | boolean;
type SchemaObject = Record<string, unknown>;

export interface SchemaComparison {
  base: OpenApiDocument;
  head: OpenApiDocument;
  direction: Direction;
  /** Records a finding; `component` is the component schema the change sits in, if any. */
  report(rule: ChangeRule, where: string, component: string | undefined, at: ChangePlace): void;
  /** Pairs already compared (`basePointer|headPointer`), which also stops reference cycles. */
  seen: Set<string>;
}

const upperBounds = ['maxLength', 'maxItems', 'maxProperties', 'maximum', 'exclusiveMaximum'];
const lowerBounds = ['minLength', 'minItems', 'minProperties', 'minimum', 'exclusiveMinimum'];

function typesOf(schema: SchemaObject): string[] | undefined {
  const type = schema['type'];
  return typeof type === 'string' ? [type] : Array.isArray(type) ? (type as string[]) : undefined;
}

/** Whether values of type `type` are allowed by `types` (JSON Schema: every integer is a number). */
function allows(types: string[], type: string): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

/** Whether every value `narrow` allows, `wide` allows too (`undefined` allows any type). */
function typesWithin(narrow: string[] | undefined, wide: string[] | undefined): boolean {
  if (wide === undefined) {
    return true;
  }
  return narrow !== undefined && narrow.every((type) => allows(wide, type));
}

function isClosed(schema: SchemaObject): boolean {
  return schema['additionalProperties'] === false || schema['unevaluatedProperties'] === false;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The keywords whose change is a change of the allowed values (type, format and bounds). */
const valueKeywords = ['type', 'format', 'pattern', 'multipleOf', 'uniqueItems', ...upperBounds, ...lowerBounds];

interface Pair {
  base: SchemaObject;
  head: SchemaObject;
  at: { base: string; head: string };
}

function compareEnums(ctx: SchemaComparison, { base, head, at }: Pair, where: string, component?: string): boolean {
  const request = ctx.direction === 'request';
  const place = { base: at.base, revision: at.head };
  if (Array.isArray(base['enum']) && Array.isArray(head['enum'])) {
    const encode = (list: unknown): Set<string> => new Set((list as unknown[]).map((value) => JSON.stringify(value)));
    const [before, after] = [encode(base['enum']), encode(head['enum'])];
    if ([...after].some((value) => !before.has(value))) {
      ctx.report('enum-value-added', where, component, place);
    }
    if ([...before].some((value) => !after.has(value))) {
      ctx.report('enum-value-removed', where, component, place);
      return true;
    }
  } else if (request && Array.isArray(head['enum'])) {
    ctx.report('constraint-tightened', where, component, place);
    return true;
  }
  return false;
}

function compareValues(ctx: SchemaComparison, pair: Pair, where: string, component?: string): void {
  const { base, head, at } = pair;
  const request = ctx.direction === 'request';
  const place = { base: at.base, revision: at.head };
  const report = (rule: ChangeRule): boolean => (ctx.report(rule, where, component, place), true);
  const [wide, narrow] = request ? [typesOf(head), typesOf(base)] : [typesOf(base), typesOf(head)];
  let broke = !typesWithin(narrow, wide) && report('type-changed');
  broke = compareEnums(ctx, pair, where, component) || broke;
  if (base['const'] !== undefined && head['const'] !== undefined) {
    if (JSON.stringify(base['const']) !== JSON.stringify(head['const'])) {
      broke = report('const-changed');
    }
  } else if (request && head['const'] !== undefined) {
    broke = report('constraint-tightened');
  }
  for (const keyword of ['format', 'pattern']) {
    const [added, removed] = [head[keyword], base[keyword]];
    const changed = request ? added !== undefined && added !== removed : removed !== undefined && added !== removed;
    if (changed) {
      broke = report('format-changed');
    }
  }
  if (request) {
    const tighter =
      upperBounds.some(
        (key) => typeof head[key] === 'number' && (typeof base[key] !== 'number' || head[key] < base[key]),
      ) ||
      lowerBounds.some(
        (key) => typeof head[key] === 'number' && (typeof base[key] !== 'number' || head[key] > base[key]),
      ) ||
      (head['uniqueItems'] === true && base['uniqueItems'] !== true) ||
      (head['multipleOf'] !== undefined && head['multipleOf'] !== base['multipleOf']);
    if (tighter) {
      broke = report('constraint-tightened');
    }
  }
  if (!broke && valueKeywords.some((key) => JSON.stringify(base[key]) !== JSON.stringify(head[key]))) {
    report('constraint-changed');
  }
}

function compareRequired(ctx: SchemaComparison, { base, head, at }: Pair, where: string, component?: string): void {
  const request = ctx.direction === 'request';
  const baseRequired = (base['required'] as string[] | undefined) ?? [];
  const headRequired = (head['required'] as string[] | undefined) ?? [];
  const [added, dropped] = [
    headRequired.filter((name) => !baseRequired.includes(name)),
    baseRequired.filter((name) => !headRequired.includes(name)),
  ];
  const report = (rule: ChangeRule, name: string): void =>
    ctx.report(rule, `${where}.${name}`, component, {
      base: childPointer(at.base, 'properties', name),
      revision: childPointer(at.head, 'properties', name),
    });
  // A member new in the revision is reported as added, not as required as well.
  const known = (name: string): boolean => name in record(base['properties']) || !(name in record(head['properties']));
  added.filter(known).forEach((name) => report(request ? 'property-became-required' : 'required-changed', name));
  dropped.forEach((name) => report(request ? 'required-changed' : 'property-no-longer-required', name));
}

function compareObjects(ctx: SchemaComparison, pair: Pair, where: string, component?: string): void {
  const { base, head, at } = pair;
  const request = ctx.direction === 'request';
  compareRequired(ctx, pair, where, component);
  const baseProperties = record(base['properties']);
  const headProperties = record(head['properties']);
  for (const name of Object.keys(headProperties).filter((name) => !(name in baseProperties))) {
    const required = request && ((head['required'] as string[] | undefined) ?? []).includes(name);
    ctx.report(required ? 'property-became-required' : 'property-added', `${where}.${name}`, component, {
      revision: childPointer(at.head, 'properties', name),
    });
  }
  for (const name of Object.keys(baseProperties)) {
    const inner = `${where}.${name}`;
    if (!(name in headProperties)) {
      const rule = !request || isClosed(head) ? 'property-removed' : 'property-undocumented';
      const revision = childPointer(at.head, 'properties');
      ctx.report(rule, inner, component, { base: childPointer(at.base, 'properties', name), revision });
      continue;
    }
    compareSchemas(ctx, childPointer(at.base, 'properties', name), childPointer(at.head, 'properties', name), inner);
  }
  if (request && !isClosed(base) && isClosed(head)) {
    ctx.report('schema-closed', where, component, { base: at.base, revision: at.head });
  }
  for (const keyword of ['additionalProperties', 'items']) {
    if (
      base[keyword] !== undefined &&
      base[keyword] !== false &&
      head[keyword] !== undefined &&
      head[keyword] !== false
    ) {
      compareSchemas(
        ctx,
        childPointer(at.base, keyword),
        childPointer(at.head, keyword),
        keyword === 'items' ? `${where}[]` : `${where}.*`,
      );
    }
  }
}

/** The key a branch is paired by: its `$ref`, or its position among the inline branches. */
function branchKeys(list: unknown): string[] {
  return (Array.isArray(list) ? list : []).map((branch, index) => {
    const ref = record(branch)['$ref'];
    return typeof ref === 'string' ? ref : `#${index}`;
  });
}

function compareBranches(ctx: SchemaComparison, { base, head, at }: Pair, where: string, component?: string): void {
  const place = { base: at.base, revision: at.head };
  for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
    const baseKeys = branchKeys(base[keyword]);
    const headKeys = branchKeys(head[keyword]);
    if (keyword !== 'allOf') {
      const request = ctx.direction === 'request';
      if (baseKeys.some((key) => !headKeys.includes(key))) {
        ctx.report(request ? 'variant-removed' : 'response-variant-removed', where, component, place);
      }
      if (baseKeys.length > 0 && headKeys.some((key) => !baseKeys.includes(key))) {
        ctx.report(request ? 'request-variant-added' : 'variant-added', where, component, place);
      }
    }
    baseKeys.forEach((key, index) => {
      const headIndex = headKeys.indexOf(key);
      if (headIndex !== -1) {
        compareSchemas(ctx, childPointer(at.base, keyword, index), childPointer(at.head, keyword, headIndex), where);
      }
    });
  }
}

/** Compares the schema at `basePointer` (base) with the one at `headPointer` (revision). */
export function compareSchemas(ctx: SchemaComparison, basePointer: string, headPointer: string, where: string): void {
  const base = resolve<Schema>(ctx.base, basePointer);
  const head = resolve<Schema>(ctx.head, headPointer);
  const key = `${base.pointer}|${head.pointer}`;
  if (ctx.seen.has(key)) {
    return;
  }
  ctx.seen.add(key);
  const component = componentName(base.pointer);
  const place = { base: base.pointer, revision: head.pointer };
  if (typeof base.node === 'boolean' || typeof head.node === 'boolean') {
    // `false` allows nothing and `true` (or `{}`) everything (JSON Schema 2020-12 §4.3.2).
    const [wide, narrow] = ctx.direction === 'request' ? [head.node, base.node] : [base.node, head.node];
    if (wide === false && narrow !== false) {
      ctx.report('type-changed', where, component, place);
    } else if (base.node !== head.node) {
      ctx.report('constraint-changed', where, component, place);
    }
    return;
  }
  if (head.node['deprecated'] === true && base.node['deprecated'] !== true) {
    ctx.report('schema-deprecated', where, component, place);
  }
  const pair = { base: base.node, head: head.node, at: { base: base.pointer, head: head.pointer } };
  compareValues(ctx, pair, where, component);
  compareObjects(ctx, pair, where, component);
  compareBranches(ctx, pair, where, component);
}
