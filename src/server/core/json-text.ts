/**
 * Response bodies a handler has already written as JSON text, sent as they are. A session's answer is its
 * stored record (JSON text already) with its URLs spliced in, and a list page is those answers copied one
 * after the other: parsing fifty records only to serialise them again was most of the cost of a list
 * (docs/benchmarks.md).
 * @module
 */
import type { WrittenJson } from '../ports/handlers.js';

/**
 * JSON text that encodes a value of type `T` (the type is the handler's promise; the text is not parsed),
 * as a string or as its UTF-8 bytes: the answers the server keeps are kept as bytes, outside the JavaScript
 * heap, where the collector need not copy them and Node need not encode them again for each answer.
 */
export class JsonText<T> implements WrittenJson<T> {
  /** The type of the value the text encodes, for the handler map's types; it does not exist at run time. */
  declare readonly value: T;

  constructor(readonly text: string | Buffer) {}
}

/** A body as the JSON text to send, as a string or UTF-8 bytes: written already, or serialised now. */
export function jsonPayloadOf(body: unknown): string | Buffer {
  return body instanceof JsonText ? body.text : JSON.stringify(body);
}

/** A body as a JSON string (to record it, say): written already, or serialised now. */
export function jsonTextOf(body: unknown): string {
  const payload = jsonPayloadOf(body);
  return typeof payload === 'string' ? payload : payload.toString('utf8');
}
