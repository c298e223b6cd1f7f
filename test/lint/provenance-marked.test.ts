import { openapi, testRule } from './testRule.js';

const ok = (schema: unknown) => ({ '200': { description: 'OK.', content: { 'application/json': { schema } } } });
const session = {
  title: 'Session',
  type: 'object',
  properties: { id: { type: 'string' }, status: { $ref: '#/components/schemas/SessionStatus' } },
  'x-provenance': 'stated',
};

testRule('provenance-marked', [
  {
    name: 'accepts marked operations, webhooks and component schemas (inline subschemas inherit)',
    document: openapi({
      paths: {
        '/v1/sessions/{id}': {
          get: { 'x-provenance': 'stated', responses: ok({ $ref: '#/components/schemas/Session' }) },
        },
      },
      webhooks: {
        'session.complete': { post: { 'x-provenance': 'variant', responses: { '2XX': { description: 'Received.' } } } },
      },
      components: {
        schemas: {
          Session: session,
          SessionStatus: { type: 'string', enum: ['running', 'complete'], 'x-provenance': 'designed' },
        },
      },
    }),
    errors: [],
  },
  {
    name: 'accepts the schema files of a split contract, however deep',
    document: openapi({ paths: { '/v1/sessions': { $ref: 'paths/v1_sessions.yaml' } } }),
    files: {
      'paths/v1_sessions.yaml': {
        get: { 'x-provenance': 'stated', responses: ok({ $ref: '../schemas/SessionPage.yaml' }) },
      },
      'schemas/SessionPage.yaml': {
        type: 'object',
        properties: { items: { type: 'array', items: { $ref: './Session.yaml' } } },
        'x-provenance': 'stated',
      },
      'schemas/Session.yaml': { type: 'object', 'x-provenance': 'variant' },
    },
    errors: [],
  },
  {
    name: 'rejects an unmarked operation and webhook, and a component schema with an unknown value',
    document: openapi({
      paths: { '/v1/sessions/{id}': { get: { responses: ok({ $ref: '#/components/schemas/Session' }) } } },
      webhooks: { 'session.complete': { post: { responses: { '2XX': { description: 'Received.' } } } } },
      components: {
        schemas: { Session: session, SessionStatus: { type: 'string', 'x-provenance': 'assumed' } },
      },
    }),
    errors: [
      {
        path: ['paths', '/v1/sessions/{id}', 'get'],
        message: /^Operation GET \/v1\/sessions\/\{id\} has no `x-provenance`/,
      },
      {
        path: ['webhooks', 'session.complete', 'post'],
        message: /^Operation POST session\.complete \(webhook\) has no/,
      },
      {
        path: ['components', 'schemas', 'SessionStatus', 'x-provenance'],
        message: /^Schema SessionStatus has `x-provenance: "assumed"`/,
      },
    ],
  },
  {
    name: 'rejects an unmarked schema file, reached only through another schema',
    document: openapi({ paths: { '/v1/sessions': { $ref: 'paths/v1_sessions.yaml' } } }),
    files: {
      'paths/v1_sessions.yaml': {
        get: { 'x-provenance': 'stated', responses: ok({ $ref: '../schemas/SessionPage.yaml' }) },
      },
      'schemas/SessionPage.yaml': {
        type: 'object',
        properties: { items: { type: 'array', items: { $ref: './Session.yaml' } } },
        'x-provenance': 'stated',
      },
      'schemas/Session.yaml': { type: 'object' },
    },
    errors: [{ path: [], file: 'schemas/Session.yaml', message: /^Schema Session has no `x-provenance`/ }],
  },
]);
