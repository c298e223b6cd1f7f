/**
 * Response bodies a handler has already written as JSON text, sent as they are. Listing sessions splices
 * each stored record (JSON text already) into the page: parsing a page of fifty records only to serialise
 * them again was most of the cost of a list (docs/benchmarks.md).
 * @module
 */

/** JSON text that encodes a value of type `T` (the type is the handler's promise; the text is not parsed). */
export class JsonText<T> {
  /** The type of the value the text encodes, for the handler map's types; it does not exist at run time. */
  declare readonly value: T;

  constructor(readonly text: string) {}
}

/** A body as the JSON text to send: written already, or serialised now. */
export function jsonTextOf(body: unknown): string {
  return body instanceof JsonText ? body.text : JSON.stringify(body);
}
