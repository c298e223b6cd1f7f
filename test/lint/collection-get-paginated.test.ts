import { openapi, testRule } from './testRule.js';

const limit = { name: 'limit', in: 'query', schema: { type: 'integer' } };
const cursor = { name: 'cursor', in: 'query', schema: { type: 'string' } };
const page = {
  type: 'object',
  required: ['items', 'next_cursor'],
  properties: { items: { type: 'array', items: { type: 'string' } }, next_cursor: { type: ['string', 'null'] } },
};
const answering = (schema: unknown) => ({ '200': { description: 'OK.', content: { 'application/json': { schema } } } });

testRule('collection-get-paginated', [
  {
    name: 'accepts a list with limit and cursor (on the path item too) answering {items, next_cursor}',
    document: openapi({
      paths: {
        '/v1/sessions': {
          get: {
            operationId: 'listSessions',
            parameters: [limit, cursor],
            responses: answering({ $ref: '#/components/schemas/SessionPage' }),
          },
        },
        '/v1/webhooks': {
          parameters: [limit],
          get: { operationId: 'listWebhooks', parameters: [cursor], responses: answering({ allOf: [page] }) },
        },
        '/v1/sessions/{id}': {
          get: {
            operationId: 'getSession',
            responses: answering({ type: 'object', properties: { id: { type: 'string' } } }),
          },
        },
        '/v1/listeners': { get: { operationId: 'listenerStatus', responses: answering({ type: 'object' }) } },
      },
      components: { schemas: { SessionPage: page } },
    }),
    errors: [],
  },
  {
    name: 'rejects a collection without limit or cursor',
    document: openapi({
      paths: {
        '/v1/sessions': { get: { operationId: 'listSessions', parameters: [limit], responses: answering(page) } },
      },
    }),
    errors: [{ path: ['paths', '/v1/sessions', 'get'], message: /does not take the query parameter `cursor`/ }],
  },
  {
    name: 'rejects a page schema that does not require next_cursor, where the schema is written',
    document: openapi({
      paths: {
        '/v1/sessions': {
          get: {
            operationId: 'listSessions',
            parameters: [limit, cursor],
            responses: answering({ $ref: '#/components/schemas/SessionPage' }),
          },
        },
      },
      components: { schemas: { SessionPage: { ...page, required: ['items'] } } },
    }),
    errors: [{ path: ['components', 'schemas', 'SessionPage'], message: /must require `next_cursor`/ }],
  },
  {
    name: 'rejects a list* operation that does not answer a page',
    document: openapi({
      paths: {
        '/v1/modes': {
          get: { operationId: 'listModes', responses: answering({ type: 'array', items: { type: 'string' } }) },
        },
      },
    }),
    errors: [{ path: ['paths', '/v1/modes', 'get'], message: /listModes\) is named as a list/ }],
  },
]);
