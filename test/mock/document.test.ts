/**
 * The document the mock serves, derived from the bundled contract: the same operations, event streams
 * as text that reads back to the contract's examples, the 404/405 fallbacks, and links to the mock.
 */
import type { MediaTypeObject, ResponseObject } from 'openapi-typescript';
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { listOperations } from '../../src/contract/operations.js';
import { childPointer, resolve } from '../../src/contract/pointer.js';
import { createContractValidator } from '../../src/contract/validator.js';
import { contractBaseUrl, createMockDocument, streamExampleName } from '../../src/mock/document.js';
import { parseEventStream } from '../../src/contract/sse.js';
import { fallbackMarker, routedMethods } from '../../src/mock/fallbacks.js';

const contract = loadContract();
const validator = createContractValidator(contract);
const mockBaseUrl = 'http://127.0.0.1:4999';
const document = createMockDocument(contract, { baseUrl: mockBaseUrl });
const streamMedia = ['streamSessionEvents', 'streamSessionSummary'].map((operationId) => {
  const entry = listOperations(contract).find((candidate) => candidate.operationId === operationId)!;
  return childPointer(entry.pointer, 'responses', '200', 'content', 'text/event-stream');
});

function examplesAt(source: unknown, media: string): Record<string, unknown> {
  const node = resolve<MediaTypeObject>(source, media).node;
  return Object.fromEntries(
    Object.keys(node.examples ?? {}).map((name) => {
      const example = resolve<{ value: unknown }>(source, childPointer(media, 'examples', name));
      return [name, example.node.value];
    }),
  );
}

describe('event streams', () => {
  test.each(streamMedia)('%s: each named event example is served as its SSE text', (media) => {
    const original = examplesAt(contract, media);
    const served = examplesAt(document, media);
    expect(Object.keys(served)).toEqual([streamExampleName, ...Object.keys(original)]);
    for (const [name, value] of Object.entries(original)) {
      // The event's own links now point at the mock, like every example body.
      const expected = JSON.parse(JSON.stringify(value).replaceAll(contractBaseUrl(contract)!, mockBaseUrl)) as unknown;
      expect(parseEventStream(served[name] as string).events, name).toEqual([expected]);
    }
  });

  test.each(streamMedia)('%s: the whole stream is the x-stream-example run, every event valid', (media) => {
    const whole = resolve<{ 'x-stream-example': string }>(contract, media).node['x-stream-example'];
    const served = examplesAt(document, media)[streamExampleName] as string;
    expect(served).toBe(whole.replaceAll(contractBaseUrl(contract)!, mockBaseUrl));
    const { events } = parseEventStream(served);
    expect(events.length).toBeGreaterThan(1);
    for (const event of events) {
      expect(validator.validate(childPointer(media, 'schema'), event).errors, event.id).toEqual([]);
    }
  });

  test.each(streamMedia)('%s: the schema Prism validates against is the list of the served texts', (media) => {
    const schema = resolve<MediaTypeObject>(document, media).node.schema as { type: string; enum: string[] };
    expect(schema.type).toBe('string');
    expect(schema.enum).toEqual(Object.values(examplesAt(document, media)));
  });
});

describe('the contract operations', () => {
  test('are all served, unchanged apart from their event streams', () => {
    const same = createMockDocument(contract, { baseUrl: contractBaseUrl(contract)! });
    for (const entry of listOperations(contract).filter((candidate) => candidate.source === 'paths')) {
      const served = resolve(same, entry.pointer).node;
      if (streamMedia.some((media) => media.startsWith(`${entry.pointer}/`))) {
        expect(served).not.toEqual(entry.operation);
      } else {
        expect(served, entry.operationId).toEqual(entry.operation);
      }
    }
  });

  test('links in examples point at the mock and the contract is left as it was', () => {
    const base = contractBaseUrl(contract)!;
    expect(JSON.stringify(document)).not.toContain(base);
    expect(JSON.stringify(document)).toContain(`${mockBaseUrl}/v1/sessions/`);
    expect(JSON.stringify(contract)).toContain(base);
  });
});

describe('routing fallbacks', () => {
  test('every method a path does not offer answers 405 with the offered methods in Allow', () => {
    for (const [path, item] of Object.entries(contract.paths ?? {})) {
      const offered = routedMethods.filter((method) => (item as Record<string, unknown>)[method] !== undefined);
      type Served = Record<string, { [fallbackMarker]?: string; responses: Record<string, ResponseObject> }>;
      const served = (document.paths ?? {})[path] as Served;
      for (const method of routedMethods.filter((candidate) => !offered.includes(candidate))) {
        const operation = served[method]!;
        expect(operation[fallbackMarker]).toBe('method-not-allowed');
        const response = operation.responses['405']!;
        const allow = (response.headers?.['Allow'] as { example: string }).example;
        expect(allow.split(', ')).toEqual(offered.map((candidate) => candidate.toUpperCase()));
        expect(Object.keys(operation.responses)).toEqual(['405']);
      }
    }
  });

  test('catch-all paths reach one segment below the deepest contract path and answer 404', () => {
    const deepest = Math.max(...Object.keys(contract.paths ?? {}).map((path) => path.split('/').length - 1));
    const catchAlls = Object.keys(document.paths ?? {}).filter((path) => /^(\/\{segment\d+\})+$/.test(path));
    expect(catchAlls.length).toBe(deepest + 1);
    for (const path of catchAlls) {
      for (const method of routedMethods) {
        const operation = resolve<{ security: unknown[]; responses: Record<string, unknown> }>(
          document,
          childPointer('#/paths', path, method),
        ).node;
        expect(operation.security).toEqual([]);
        expect(Object.keys(operation.responses)).toEqual(['404']);
      }
    }
  });

  test('the fallback problems validate against the contract and carry their catalog type', () => {
    const fallbacks = listOperations(document).filter((entry) => fallbackMarker in entry.operation);
    for (const entry of fallbacks) {
      for (const status of Object.keys(entry.operation.responses ?? {})) {
        const media = childPointer(entry.pointer, 'responses', status, 'content', 'application/problem+json');
        for (const value of Object.values(examplesAt(document, media))) {
          expect(validator.validate('#/components/schemas/Problem', value).errors).toEqual([]);
          expect((value as { status: number }).status).toBe(Number(status));
          const slug = (value as { type: string }).type.split('/').pop();
          expect((value as { type: string }).type).toBe(`https://problems.decision-board.example/${slug}`);
          expect(['not-found', 'method-not-allowed']).toContain(slug);
        }
      }
    }
    expect(fallbacks.length).toBeGreaterThan(0);
  });
});
