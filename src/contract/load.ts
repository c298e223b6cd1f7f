/**
 * Loads the bundled contract (`openapi/dist/openapi.json`, written by `boardkit bundle`).
 *
 * The JSON twin of the bundled YAML is read because it parses without YAML 1.1/1.2 ambiguities and fast.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { OpenApiDocument } from './openapi-objects.js';
import { bundledJson } from './paths.js';

export type { OpenApiDocument };

const cache = new Map<string, OpenApiDocument>();

/** Parses a bundled document and checks it is OpenAPI 3.1. */
export function parseContract(text: string, source = 'the contract'): OpenApiDocument {
  const document = JSON.parse(text) as OpenApiDocument;
  if (typeof document.openapi !== 'string' || !document.openapi.startsWith('3.1.')) {
    throw new Error(`${source} is not an OpenAPI 3.1 document (openapi: ${String(document.openapi)})`);
  }
  return document;
}

/**
 * The bundled contract, read once per file. Callers share the object, so they must not change it;
 * it is frozen only shallowly, which is enough to catch accidental top-level writes.
 */
export function loadContract(file: string = bundledJson): Readonly<OpenApiDocument> {
  let document = cache.get(file);
  if (document === undefined) {
    document = Object.freeze(parseContract(readFileSync(file, 'utf8'), file));
    cache.set(file, document);
  }
  return document;
}
