import { openapi, testRule } from './testRule.js';

const schemas = (components: Record<string, unknown>) => openapi({ components: { schemas: components } });

testRule('generator-compatible', [
  {
    name: 'accepts the forms every generator reads',
    document: schemas({
      Name: { type: 'string', pattern: '^[a-z]+$', enum: ['a', 'b'], 'x-provenance': 'stated' },
      Answer: {
        type: 'object',
        properties: { id: { type: 'string' } },
        not: { anyOf: [{ required: ['task_id'] }, { required: ['session_id'] }] },
        additionalProperties: false,
        'x-provenance': 'stated',
      },
      Waits: {
        type: 'array',
        items: { type: 'integer' },
        minItems: 2,
        maxItems: 2,
        prefixItems: [{ enum: [1] }, { enum: [5] }],
      },
      Event: { type: 'object', properties: { event: { type: 'string', enum: ['a', 'b'] } } },
      EventA: {
        allOf: [{ $ref: '#/components/schemas/Event' }, { type: 'object', properties: { event: { enum: ['a'] } } }],
      },
    }),
    errors: [],
  },
  {
    name: 'rejects a boolean member schema, naming openapi-python-client and not/required',
    document: schemas({ Answer: { type: 'object', properties: { id: { type: 'string' }, task_id: false } } }),
    errors: [
      {
        path: ['components', 'schemas', 'Answer', 'properties', 'task_id'],
        message: /openapi-python-client.*`not: \{required: \[name\]\}`/,
      },
    ],
  },
  {
    name: 'rejects a list const, naming prefixItems',
    document: schemas({ Waits: { type: 'array', items: { type: 'integer' }, const: [1, 5] } }),
    errors: [{ path: ['components', 'schemas', 'Waits', 'const'], message: /openapi-python-client.*`prefixItems`/ }],
  },
  {
    name: 'rejects allOf of a string and an enum, naming one flat schema',
    document: schemas({
      Slug: { type: 'string', pattern: '^[a-z]+$' },
      Choice: { allOf: [{ $ref: '#/components/schemas/Slug' }, { enum: ['a', 'b'] }] },
    }),
    errors: [
      {
        path: ['components', 'schemas', 'Choice', 'allOf'],
        message: /Cannot take allOf a non-object.*one flat schema/,
      },
    ],
  },
  {
    name: 'rejects a const narrowing a member another allOf part declares, naming a one-value enum',
    document: schemas({
      Event: { type: 'object', properties: { event: { type: 'string', enum: ['a', 'b'] } } },
      EventA: {
        allOf: [{ $ref: '#/components/schemas/Event' }, { type: 'object', properties: { event: { const: 'a' } } }],
      },
    }),
    errors: [
      {
        path: ['components', 'schemas', 'EventA', 'allOf', 1, 'properties', 'event', 'const'],
        message: /cannot merge.*one-value `enum`/,
      },
    ],
  },
]);

testRule('generator-flat-parameter-schema', [
  {
    name: 'accepts a flat parameter schema and rejects a oneOf, naming orval',
    document: openapi({
      components: {
        parameters: {
          Flat: { name: 'a', in: 'path', required: true, schema: { type: 'string', pattern: '^(x|y)$' } },
          Either: {
            name: 'b',
            in: 'path',
            required: true,
            schema: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          },
        },
      },
    }),
    errors: [{ path: ['components', 'parameters', 'Either', 'schema', 'oneOf'], message: /^orval cannot resolve/ }],
  },
]);

testRule('generator-server-variable-description', [
  {
    name: 'rejects a described server variable, naming swagger-parser',
    document: openapi({
      servers: [
        {
          url: '{base_url}',
          description: 'The base address.',
          variables: { base_url: { default: 'http://127.0.0.1:8080', description: 'The base.' } },
        },
      ],
    }),
    errors: [
      {
        path: ['servers', 0, 'variables', 'base_url', 'description'],
        message: /^@apidevtools\/swagger-parser refuses/,
      },
    ],
  },
]);
