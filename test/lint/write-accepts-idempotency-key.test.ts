import { openapi, testRule } from './testRule.js';

const ok = { '204': { description: 'Done.' } };
const idempotencyKey = { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } };
const write = (extra: Record<string, unknown> = {}) => ({ operationId: 'cancelSession', responses: ok, ...extra });

testRule('write-accepts-idempotency-key', [
  {
    name: 'accepts the header on the operation, on the path item, by $ref and in any letter case',
    document: openapi({
      paths: {
        '/v1/sessions': { post: write({ parameters: [idempotencyKey] }), get: { responses: ok } },
        '/v1/sessions/{id}': {
          parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
          patch: write(),
          delete: write(),
        },
        '/v1/sessions/{id}/cancel': { post: write({ parameters: [{ ...idempotencyKey, name: 'idempotency-key' }] }) },
      },
      components: { parameters: { IdempotencyKey: idempotencyKey } },
    }),
    errors: [],
  },
  {
    name: 'accepts the shared parameter file of a split contract',
    document: openapi({ paths: { '/v1/sessions': { $ref: 'paths/v1_sessions.yaml' } } }),
    files: {
      'paths/v1_sessions.yaml': { post: write({ parameters: [{ $ref: '../parameters/IdempotencyKey.yaml' }] }) },
      'parameters/IdempotencyKey.yaml': idempotencyKey,
    },
    errors: [],
  },
  {
    name: 'rejects a POST, a PATCH and a DELETE without it (a query parameter of that name does not count)',
    document: openapi({
      paths: {
        '/v1/sessions': { post: write(), get: { responses: ok } },
        '/v1/sessions/{id}': {
          patch: write(),
          delete: write({ parameters: [{ ...idempotencyKey, in: 'query' }] }),
        },
      },
    }),
    errors: [
      {
        path: ['paths', '/v1/sessions', 'post'],
        message: /^POST \/v1\/sessions does not accept the `Idempotency-Key` header/,
      },
      { path: ['paths', '/v1/sessions/{id}', 'patch'], message: /^PATCH / },
      { path: ['paths', '/v1/sessions/{id}', 'delete'], message: /^DELETE / },
    ],
  },
  {
    name: 'reports in the path item file of a split contract',
    document: openapi({ paths: { '/v1/sessions': { $ref: 'paths/v1_sessions.yaml' } } }),
    files: { 'paths/v1_sessions.yaml': { post: write() } },
    errors: [{ path: ['post'], file: 'paths/v1_sessions.yaml' }],
  },
]);
