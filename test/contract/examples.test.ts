import { describe, expect, test } from 'vitest';
import { collectExamples } from '../../src/contract/examples.js';
import { loadContract } from '../../src/contract/load.js';
import { createContractValidator } from '../../src/contract/validator.js';
import { miniContract } from '../fixtures/mini-contract.js';

describe('collectExamples', () => {
  test('finds parameter, header, media and schema examples, following $ref', () => {
    const found = collectExamples(miniContract()).map(({ kind, location, schemaPointer, value }) => ({
      kind,
      location,
      schemaPointer,
      value,
    }));
    expect(found).toEqual(
      expect.arrayContaining([
        {
          kind: 'parameter',
          location: '#/components/parameters/ThingId/examples/plain',
          schemaPointer: '#/components/parameters/ThingId/schema',
          value: 'thg_01abc',
        },
        {
          kind: 'parameter',
          location: '#/paths/~1v1~1things~1{id}/get/parameters/0/example',
          schemaPointer: '#/paths/~1v1~1things~1{id}/get/parameters/0/schema',
          value: 5000,
        },
        {
          kind: 'header',
          location: '#/components/headers/X-Service-API-Version/example',
          schemaPointer: '#/components/headers/X-Service-API-Version/schema',
          value: '2026-10-01',
        },
        {
          kind: 'media',
          location: '#/paths/~1v1~1things~1{id}/get/responses/200/content/application~1json/examples/square',
          schemaPointer: '#/paths/~1v1~1things~1{id}/get/responses/200/content/application~1json/schema',
          value: { side: 3 },
        },
        {
          kind: 'media',
          location: '#/webhooks/thing.created/post/requestBody/content/application~1json/example',
          schemaPointer: '#/webhooks/thing.created/post/requestBody/content/application~1json/schema',
          value: { side: 4 },
        },
        {
          kind: 'schema',
          location: '#/components/schemas/Square/properties/side/examples/0',
          schemaPointer: '#/components/schemas/Square/properties/side',
          value: 3,
        },
      ]),
    );
    // Each carrier is visited once: the path parameter is only found where it is defined.
    expect(found.filter((example) => example.value === 'thg_01abc')).toHaveLength(1);
    expect(found).toHaveLength(10);
  });

  test('a wrong example is caught', () => {
    const document = miniContract();
    const square = document.components?.examples?.['Square'];
    if (square === undefined || '$ref' in square) {
      throw new Error('fixture changed');
    }
    square.value = { side: 0 };
    const validator = createContractValidator(document);
    const failing = collectExamples(document).filter(
      (example) => !validator.validate(example.schemaPointer, example.value).valid,
    );
    expect(failing.map((example) => example.location)).toEqual([
      '#/paths/~1v1~1things~1{id}/get/responses/200/content/application~1json/examples/square',
    ]);
  });
});

describe('the contract', () => {
  const document = loadContract();
  const validator = createContractValidator(document);
  const examples = collectExamples(document);

  test('has examples of every kind', () => {
    const kinds = new Set(examples.map((example) => example.kind));
    expect(kinds).toEqual(new Set(['media', 'parameter', 'header', 'schema']));
  });

  test.each(examples.map((example) => [example.location, example] as const))('%s', (_, example) => {
    expect(example.hasValue, 'a named example needs an inline `value`').toBe(true);
    const { errors } = validator.validate(example.schemaPointer, example.value);
    expect(errors.map(({ instancePath, message }) => `${instancePath || '/'} ${message ?? ''}`)).toEqual([]);
  });
});
