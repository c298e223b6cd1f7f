import { openapi, testRule } from './testRule.js';

const version = { description: 'The version.', schema: { type: 'string' } };

testRule('response-has-api-version-header', [
  {
    name: 'accepts responses that declare it (in any letter case, by $ref); webhooks are exempt',
    document: openapi({
      paths: {
        '/v1/health': {
          get: {
            responses: {
              '200': { description: 'OK.', headers: { 'X-Service-API-Version': version } },
              '500': { $ref: '#/components/responses/InternalError' },
            },
          },
        },
      },
      webhooks: { 'session.complete': { post: { responses: { '2XX': { description: 'Received.' } } } } },
      components: {
        responses: { InternalError: { description: 'Fault.', headers: { 'x-service-api-version': version } } },
      },
    }),
    errors: [],
  },
  {
    name: 'rejects a response without it, where the response is written',
    document: openapi({
      paths: {
        '/v1/health': {
          get: {
            responses: {
              '200': { description: 'OK.', headers: { RateLimit: version } },
              '500': { $ref: '#/components/responses/InternalError' },
            },
          },
        },
      },
      components: { responses: { InternalError: { description: 'Fault.' } } },
    }),
    errors: [
      {
        path: ['paths', '/v1/health', 'get', 'responses', '200'],
        message: /^Response 200 does not declare the `X-Service-API-Version` header/,
      },
      { path: ['components', 'responses', 'InternalError'], message: /^Response 500 / },
    ],
  },
]);
