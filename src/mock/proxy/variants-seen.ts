/**
 * Which variants of the contract a value shows: the branch of every `oneOf` variant set (src/contract
 * variants.ts) it passes through, found by walking the schema along the value (through `$ref`, `allOf`,
 * `properties` and `items`) and testing each set it meets with the contract's validator. A set's branches
 * exclude each other by shape (openapi/README.md "Variants"), so a valid value matches one.
 * @module
 */
import type { OpenApiDocument } from '../../contract/load.js';
import { childPointer, resolve } from '../../contract/pointer.js';
import type { ContractValidator } from '../../contract/validator.js';
import { listVariantSets, matchingBranches, type VariantSet } from '../../contract/variants.js';

type Node = Record<string, unknown>;

/** A variant seen: the set (`SessionId`) and the branch it matched (`SessionIdPrefixed`). */
export interface SeenVariant {
  set: string;
  branch: string;
}

/** Deep enough for the contract's nesting, bounded against a pathological document. */
const maxDepth = 8;
/** Items of an array walked; a page of a list shows its variants in its first items. */
const maxItems = 50;

/** The short name of a schema pointer: `SessionId` of `#/components/schemas/SessionId`. */
export function schemaName(pointer: string): string {
  return pointer.replace(/^#\/components\/schemas\//, '');
}

export function createVariantFinder(
  document: OpenApiDocument,
  validator: ContractValidator,
): { sets: VariantSet[]; find(schemaPointer: string, value: unknown): SeenVariant[] } {
  const sets = listVariantSets(document);
  const byPointer = new Map(sets.map((set) => [set.pointer, set]));

  function walk(pointer: string, value: unknown, depth: number, seen: SeenVariant[]): void {
    if (depth > maxDepth) {
      return;
    }
    const { node, pointer: at } = resolve<Node>(document, pointer);
    const set = byPointer.get(at);
    if (set !== undefined) {
      for (const index of matchingBranches(validator, set, value)) {
        seen.push({ set: schemaName(set.pointer), branch: schemaName(set.branches[index]!.target) });
        walk(set.branches[index]!.pointer, value, depth + 1, seen);
      }
    }
    if (value === null || typeof value !== 'object') {
      return;
    }
    (node['allOf'] as unknown[] | undefined)?.forEach((_, index) =>
      walk(childPointer(at, 'allOf', index), value, depth + 1, seen),
    );
    if (Array.isArray(value)) {
      if (node['items'] !== undefined) {
        value.slice(0, maxItems).forEach((item) => walk(childPointer(at, 'items'), item, depth + 1, seen));
      }
      return;
    }
    const properties = (node['properties'] as Node | undefined) ?? {};
    for (const [name, member] of Object.entries(value as Node)) {
      if (name in properties) {
        walk(childPointer(at, 'properties', name), member, depth + 1, seen);
      }
    }
  }

  return {
    sets,
    find(schemaPointer, value) {
      const seen: SeenVariant[] = [];
      walk(schemaPointer, value, 0, seen);
      return seen;
    },
  };
}
