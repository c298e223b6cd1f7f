/**
 * The response an operation documents for a status, and what it says about it: its media types and the
 * schema of each, and its headers (OAS 3.1 §4.8.16, Responses Object: the exact code first, then its range
 * such as `4XX`, then `default`). The reference server's response validation, the proxy's checks and the
 * conformance suite judge an answer against the response found here.
 * @module
 */
import type { HeaderObject, MediaTypeObject, ResponseObject } from './openapi-objects.js';
import { childPointer, resolve, valueAt } from './pointer.js';

export interface DocumentedResponse {
  /** Where the response object is, after its `$ref`. */
  pointer: string;
  node: ResponseObject;
  /** The media types it documents; none for a response without a body. */
  mediaTypes: string[];
}

/** The keys of the operation's responses, in the contract's order (for "expected" in a finding). */
export function documentedStatuses(document: unknown, operationPointer: string): string[] {
  const responses = valueAt(document, childPointer(operationPointer, 'responses'));
  return typeof responses === 'object' && responses !== null ? Object.keys(responses) : [];
}

/** The response the operation at `operationPointer` documents for `status`, or `undefined` when none. */
export function documentedResponse(
  document: unknown,
  operationPointer: string,
  status: number,
): DocumentedResponse | undefined {
  const keys = documentedStatuses(document, operationPointer);
  const code = String(status);
  const key = [code, `${code[0]}XX`, 'default'].find((candidate) => keys.includes(candidate));
  if (key === undefined) {
    return undefined;
  }
  const { pointer, node } = resolve<ResponseObject>(document, childPointer(operationPointer, 'responses', key));
  return { pointer, node, mediaTypes: Object.keys(node.content ?? {}) };
}

/** The pointer of the schema `response` documents for `mediaType`; `undefined` when it documents none. */
export function bodySchemaOf(document: unknown, response: DocumentedResponse, mediaType: string): string | undefined {
  if (!response.mediaTypes.includes(mediaType)) {
    return undefined;
  }
  const media = resolve<MediaTypeObject>(document, childPointer(response.pointer, 'content', mediaType));
  return media.node.schema === undefined ? undefined : childPointer(media.pointer, 'schema');
}

export interface DocumentedHeader {
  /** As the contract spells it; header names compare case-insensitively (RFC 9110 §5.1). */
  name: string;
  required: boolean;
  /** The pointer of its schema; `undefined` when it has none. */
  schema: string | undefined;
  /** The `type` of its schema, which a header's text is read as (`headerValue`). */
  type: unknown;
}

/** The headers `response` declares. */
export function documentedHeaders(document: unknown, response: DocumentedResponse): DocumentedHeader[] {
  return Object.keys(response.node.headers ?? {}).map((name) => {
    const header = resolve<HeaderObject>(document, childPointer(response.pointer, 'headers', name));
    if (header.node.schema === undefined) {
      return { name, required: header.node.required === true, schema: undefined, type: undefined };
    }
    const schema = childPointer(header.pointer, 'schema');
    const type = resolve<Record<string, unknown>>(document, schema).node['type'];
    return { name, required: header.node.required === true, schema, type };
  });
}

/** A header's text as the value its schema types: integers, numbers and booleans (OAS `simple` style). */
export function headerValue(header: DocumentedHeader, text: string): unknown {
  if ((header.type === 'integer' || header.type === 'number') && /^-?\d+(\.\d+)?$/.test(text.trim())) {
    return Number(text.trim());
  }
  return header.type === 'boolean' && (text === 'true' || text === 'false') ? text === 'true' : text;
}

/** The media type of a Content-Type value without parameters, lower case (RFC 9110 §8.3.1). */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  return essence === undefined || essence === '' ? undefined : essence;
}
