/**
 * JSON Pointers (RFC 6901) into the bundled contract and local `$ref` resolution.
 *
 * The bundled document only holds local references (`#/components/...`), so resolving is a pointer walk.
 * @module
 */

/** Escapes one reference token (RFC 6901 §3: `~` → `~0`, `/` → `~1`). */
export function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Joins reference tokens into a URI-fragment pointer such as `#/paths/~1v1~1health/get`. */
export function pointerOf(...tokens: Array<string | number>): string {
  return `#${tokens.map((token) => `/${escapeToken(String(token))}`).join('')}`;
}

/** Appends tokens to a pointer. */
export function childPointer(pointer: string, ...tokens: Array<string | number>): string {
  return pointer + pointerOf(...tokens).slice(1);
}

/** The value at a `#/...` pointer, or `undefined` when the pointer leads nowhere (RFC 6901 §4). */
export function valueAt(document: unknown, pointer: string): unknown {
  if (!pointer.startsWith('#')) {
    throw new Error(`Only local pointers are supported, got ${pointer}`);
  }
  const body = pointer.slice(1);
  if (body === '') {
    return document;
  }
  let node: unknown = document;
  for (const raw of body.split('/').slice(1)) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) {
      return undefined;
    }
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

export interface Resolved<T = unknown> {
  /** The object a chain of Reference Objects ends at. */
  node: T;
  /** Where that object lives in the document. */
  pointer: string;
}

function refOf(node: unknown): string | undefined {
  if (node !== null && typeof node === 'object' && '$ref' in node && typeof node.$ref === 'string') {
    return node.$ref;
  }
  return undefined;
}

/**
 * Follows Reference Objects from `pointer` until a node without `$ref` is reached. Siblings of `$ref`
 * are only `description`/`summary` by convention (openapi/README.md), so they are ignored here.
 */
export function resolve<T = unknown>(document: unknown, pointer: string): Resolved<T> {
  const seen = new Set<string>();
  let current = pointer;
  let node = valueAt(document, current);
  for (let ref = refOf(node); ref !== undefined; ref = refOf(node)) {
    if (seen.has(current)) {
      throw new Error(`Reference cycle at ${current}`);
    }
    seen.add(current);
    current = ref;
    node = valueAt(document, current);
  }
  if (node === undefined) {
    throw new Error(`Nothing at ${current} (reached from ${pointer})`);
  }
  return { node: node as T, pointer: current };
}
