/**
 * The `oneOf` variant sets of the contract and the examples that show each variant.
 *
 * The wire format has no tag field, so each branch must exclude the others by its own shape
 * (openapi/README.md "Variants"; OAS 3.1.1 says `discriminator` cannot change a `oneOf` result). A set's
 * examples are the media examples whose schema is the set itself and each branch's schema `examples`
 * (the same reading as the house lint rule `oneof-exclusive`).
 * @module
 */
import { collectExamples, type ContractExample } from './examples.js';
import type { OpenApiDocument } from './load.js';
import { childPointer, resolve } from './pointer.js';
import type { ContractValidator } from './validator.js';
import { walkContract } from './walk.js';

export interface VariantBranch {
  /** The branch inside the `oneOf`, e.g. `#/components/schemas/SessionId/oneOf/0`. */
  pointer: string;
  /** The schema the branch resolves to, e.g. `#/components/schemas/SessionIdPrefixed`. */
  target: string;
}

export interface VariantSet {
  /** The schema holding the `oneOf`. */
  pointer: string;
  branches: VariantBranch[];
  examples: ContractExample[];
}

function resolvedPointer(document: OpenApiDocument, pointer: string): string {
  return resolve(document, pointer).pointer;
}

/** Every `oneOf` under `components.schemas`, nested ones included. */
export function listVariantSets(document: OpenApiDocument): VariantSet[] {
  const examples = collectExamples(document);
  return walkContract(document)
    .schemas.filter(({ pointer, node }) => pointer.startsWith('#/components/schemas/') && Array.isArray(node['oneOf']))
    .map(({ pointer, node }) => {
      const branches = (node['oneOf'] as unknown[]).map((_, index) => {
        const branch = childPointer(pointer, 'oneOf', index);
        return { pointer: branch, target: resolvedPointer(document, branch) };
      });
      const targets = new Set(branches.map((branch) => branch.target));
      const own = examples.filter(
        (example) =>
          (example.kind !== 'schema' && resolvedPointer(document, example.schemaPointer) === pointer) ||
          (example.kind === 'schema' && targets.has(example.schemaPointer)),
      );
      return { pointer, branches, examples: own };
    });
}

/** The indexes of the branches `value` is valid against. */
export function matchingBranches(validator: ContractValidator, set: VariantSet, value: unknown): number[] {
  return set.branches.flatMap((branch, index) => (validator.validate(branch.pointer, value).valid ? [index] : []));
}

/** The member names a branch declares in `properties`, through `allOf` and references. */
export function declaredMembers(document: OpenApiDocument, branch: VariantBranch): Set<string> {
  const names = new Set<string>();
  const stack = [branch.target];
  for (let pointer = stack.pop(); pointer !== undefined; pointer = stack.pop()) {
    const { node, pointer: at } = resolve<Record<string, unknown>>(document, pointer);
    Object.keys((node['properties'] as object | undefined) ?? {}).forEach((name) => names.add(name));
    (node['allOf'] as unknown[] | undefined)?.forEach((_, index) => stack.push(childPointer(at, 'allOf', index)));
  }
  return names;
}

/** Whether a branch forbids members it does not declare, so a body mixing in another branch's must fail it. */
export function isClosed(document: OpenApiDocument, branch: VariantBranch): boolean {
  const node = resolve<Record<string, unknown>>(document, branch.target).node;
  return node['additionalProperties'] === false || node['unevaluatedProperties'] === false;
}
