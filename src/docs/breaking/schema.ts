/**
 * Compares a schema of the released contract with the same schema now, in one direction (request or
 * response, see rules.ts), following `$ref`s on both sides and walking properties, items, variants and
 * `allOf` parts.
 * @module
 */
import type { OpenApiDocument } from '../../contract/load.js';
import { childPointer, resolve } from '../../contract/pointer.js';
import { componentName } from '../labels.js';
import type { BreakingRule, Direction } from './rules.js';

type Schema = Record<string, unknown> | boolean;
type SchemaObject = Record<string, unknown>;

export interface SchemaComparison {
  base: OpenApiDocument;
  head: OpenApiDocument;
  direction: Direction;
  /** Records a finding; `component` is the component schema the change sits in, if any. */
  report(rule: BreakingRule, where: string, component?: string): void;
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

function compareValues(
  ctx: SchemaComparison,
  base: SchemaObject,
  head: SchemaObject,
  where: string,
  component?: string,
): void {
  const request = ctx.direction === 'request';
  const [wide, narrow] = request ? [typesOf(head), typesOf(base)] : [typesOf(base), typesOf(head)];
  if (!typesWithin(narrow, wide)) {
    ctx.report('type-changed', where, component);
  }
  if (Array.isArray(base['enum']) && Array.isArray(head['enum'])) {
    const kept = new Set((head['enum'] as unknown[]).map((value) => JSON.stringify(value)));
    if ((base['enum'] as unknown[]).some((value) => !kept.has(JSON.stringify(value)))) {
      ctx.report('enum-value-removed', where, component);
    }
  } else if (request && Array.isArray(head['enum'])) {
    ctx.report('constraint-tightened', where, component);
  }
  if (base['const'] !== undefined && head['const'] !== undefined) {
    if (JSON.stringify(base['const']) !== JSON.stringify(head['const'])) {
      ctx.report('const-changed', where, component);
    }
  } else if (request && head['const'] !== undefined) {
    ctx.report('constraint-tightened', where, component);
  }
  for (const keyword of ['format', 'pattern']) {
    const [added, removed] = [head[keyword], base[keyword]];
    const changed = request ? added !== undefined && added !== removed : removed !== undefined && added !== removed;
    if (changed) {
      ctx.report('format-changed', where, component);
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
      ctx.report('constraint-tightened', where, component);
    }
  }
}

function compareObjects(
  ctx: SchemaComparison,
  base: SchemaObject,
  head: SchemaObject,
  at: { base: string; head: string },
  where: string,
  component?: string,
): void {
  const request = ctx.direction === 'request';
  const baseRequired = (base['required'] as string[] | undefined) ?? [];
  const headRequired = (head['required'] as string[] | undefined) ?? [];
  if (request) {
    headRequired
      .filter((name) => !baseRequired.includes(name))
      .forEach((name) => ctx.report('property-became-required', `${where}.${name}`, component));
  } else {
    baseRequired
      .filter((name) => !headRequired.includes(name))
      .forEach((name) => ctx.report('property-no-longer-required', `${where}.${name}`, component));
  }
  const headProperties = record(head['properties']);
  for (const name of Object.keys(record(base['properties']))) {
    const inner = `${where}.${name}`;
    if (!(name in headProperties)) {
      if (!request || isClosed(head)) {
        ctx.report('property-removed', inner, component);
      }
      continue;
    }
    compareSchemas(ctx, childPointer(at.base, 'properties', name), childPointer(at.head, 'properties', name), inner);
  }
  if (request && !isClosed(base) && isClosed(head)) {
    ctx.report('schema-closed', where, component);
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

function compareBranches(
  ctx: SchemaComparison,
  at: { base: string; head: string },
  base: SchemaObject,
  head: SchemaObject,
  where: string,
  component?: string,
): void {
  for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
    const baseKeys = branchKeys(base[keyword]);
    const headKeys = branchKeys(head[keyword]);
    if (keyword !== 'allOf') {
      if (ctx.direction === 'request' && baseKeys.some((key) => !headKeys.includes(key))) {
        ctx.report('variant-removed', where, component);
      }
      if (ctx.direction === 'response' && baseKeys.length > 0 && headKeys.some((key) => !baseKeys.includes(key))) {
        ctx.report('variant-added', where, component);
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

/** Compares the schema at `basePointer` (released) with the one at `headPointer` (now). */
export function compareSchemas(ctx: SchemaComparison, basePointer: string, headPointer: string, where: string): void {
  const base = resolve<Schema>(ctx.base, basePointer);
  const head = resolve<Schema>(ctx.head, headPointer);
  const key = `${base.pointer}|${head.pointer}`;
  if (ctx.seen.has(key)) {
    return;
  }
  ctx.seen.add(key);
  const component = componentName(base.pointer);
  if (typeof base.node === 'boolean' || typeof head.node === 'boolean') {
    // `false` allows nothing and `true` (or `{}`) everything (JSON Schema 2020-12 §4.3.2).
    const [wide, narrow] = ctx.direction === 'request' ? [head.node, base.node] : [base.node, head.node];
    if (wide === false && narrow !== false) {
      ctx.report('type-changed', where, component);
    }
    return;
  }
  const at = { base: base.pointer, head: head.pointer };
  compareValues(ctx, base.node, head.node, where, component);
  compareObjects(ctx, base.node, head.node, at, where, component);
  compareBranches(ctx, at, base.node, head.node, where, component);
}
