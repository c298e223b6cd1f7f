/**
 * Readable names for places of the contract, shared by the generated pages and the breaking-change
 * guard: operations as `METHOD /path` or `webhook <event>`, schemas by component name, and any JSON
 * Pointer as the operation or component it lies in.
 * @module
 */
import type { OperationEntry } from '../contract/operations.js';

/** Decodes the reference tokens of a `#/...` pointer (RFC 6901 §4). */
export function pointerTokens(pointer: string): string[] {
  return pointer
    .slice(2)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function operationLabel(entry: Pick<OperationEntry, 'source' | 'path' | 'method'>): string {
  return entry.source === 'webhooks'
    ? `webhook ${entry.path}${entry.method === 'post' ? '' : ` (${entry.method.toUpperCase()})`}`
    : `${entry.method.toUpperCase()} ${entry.path}`;
}

/** The component name of a pointer under `#/components/<kind>/<name>`, or `undefined`. */
export function componentName(pointer: string, kind = 'schemas'): string | undefined {
  const [root, componentKind, name] = pointerTokens(pointer);
  return root === 'components' && componentKind === kind ? name : undefined;
}

/**
 * Where a pointer lies, in words: `POST /v1/sessions request body` for a media example of an operation,
 * `StartSessionRequestA` for a schema, `x-deprecation-policy.notice[0]` for a root extension.
 */
export function placeLabel(pointer: string): string {
  const tokens = pointerTokens(pointer);
  const [root, first, second, third] = tokens;
  if ((root === 'paths' || root === 'webhooks') && first !== undefined && second !== undefined) {
    const label = operationLabel({ source: root, path: first, method: second as OperationEntry['method'] });
    if (third === 'requestBody') {
      return `${label} request body`;
    }
    if (third === 'responses') {
      return `${label} response ${tokens[4] ?? ''}`.trimEnd();
    }
    return label;
  }
  if (root === 'components' && first !== undefined && second !== undefined) {
    return first === 'responses' ? `${second} response` : second;
  }
  return tokens
    .map((token, index) => (/^\d+$/.test(token) ? `[${token}]` : `${index === 0 ? '' : '.'}${token}`))
    .join('');
}
