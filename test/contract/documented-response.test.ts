/**
 * The documented response of an answer (OAS 3.1 §4.8.16): the exact code, then its range, then `default`,
 * through `$ref`s, with its media types, body schemas and headers.
 */
import { describe, expect, test } from 'vitest';
import {
  bodySchemaOf,
  documentedHeaders,
  documentedResponse,
  documentedStatuses,
  headerValue,
  mediaTypeOf,
} from '../../src/contract/documented-response.js';
import { miniContract } from '../fixtures/mini-contract.js';

const document = miniContract();
const getThing = '#/paths/~1v1~1things~1{id}/get';

describe('documentedResponse', () => {
  test('finds the exact code first, then its range, and none for a status the operation leaves out', () => {
    expect(documentedStatuses(document, getThing)).toEqual(['200', '4XX']);
    expect(documentedResponse(document, getThing, 200)).toMatchObject({
      pointer: `${getThing}/responses/200`,
      mediaTypes: ['application/json'],
    });
    expect(documentedResponse(document, getThing, 404)).toMatchObject({
      pointer: '#/components/responses/Problem',
      mediaTypes: ['application/problem+json'],
    });
    expect(documentedResponse(document, getThing, 500)).toBeUndefined();
  });

  test('falls back to `default` when neither the code nor its range is documented', () => {
    const copy = structuredClone(document) as unknown as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    };
    copy.paths['/v1/things/{id}']!.get.responses['default'] = { description: 'Anything else.' };
    expect(documentedResponse(copy, getThing, 503)).toMatchObject({ mediaTypes: [] });
  });

  test('gives the body schema of a documented media type and none of another', () => {
    const ok = documentedResponse(document, getThing, 200)!;
    expect(bodySchemaOf(document, ok, 'application/json')).toBe(
      `${getThing}/responses/200/content/application~1json/schema`,
    );
    expect(bodySchemaOf(document, ok, 'text/plain')).toBeUndefined();
  });

  test('lists the headers with their schemas, and reads header text as the schema types it', () => {
    const [header] = documentedHeaders(document, documentedResponse(document, getThing, 200)!);
    expect(header).toEqual({
      name: 'X-Service-API-Version',
      required: false,
      schema: '#/components/headers/X-Service-API-Version/schema',
      type: 'string',
    });
    const typed = (type: string) => ({ name: 'X', required: false, schema: '#/x', type });
    expect(headerValue(typed('integer'), ' 42 ')).toBe(42);
    expect(headerValue(typed('number'), '1.5')).toBe(1.5);
    expect(headerValue(typed('boolean'), 'true')).toBe(true);
    expect(headerValue(typed('integer'), 'many')).toBe('many');
    expect(headerValue(typed('string'), '42')).toBe('42');
  });

  test('reads the media type of a Content-Type without its parameters', () => {
    expect(mediaTypeOf('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaTypeOf('')).toBeUndefined();
    expect(mediaTypeOf(undefined)).toBeUndefined();
  });
});
