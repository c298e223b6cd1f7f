import { openapi, testRule } from './testRule.js';

const ok = { '200': { description: 'OK.' } };

testRule('no-default-response', [
  {
    name: 'accepts operations and webhooks that list their statuses',
    document: openapi({
      paths: { '/v1/health': { get: { responses: ok } } },
      webhooks: { 'session.complete': { post: { responses: { '2XX': { description: 'Received.' } } } } },
    }),
    errors: [],
  },
  {
    name: 'rejects a default response that is a $ref, in the file that lists it',
    document: openapi({ paths: { '/v1/health': { $ref: 'paths/v1_health.yaml' } } }),
    files: {
      'paths/v1_health.yaml': { get: { responses: { ...ok, default: { $ref: '../responses/InternalError.yaml' } } } },
      'responses/InternalError.yaml': { description: 'Fault.' },
    },
    errors: [{ path: ['get', 'responses'], file: 'paths/v1_health.yaml' }],
  },
  {
    name: 'rejects a default response on an operation and on a webhook',
    document: openapi({
      paths: { '/v1/health': { get: { responses: { ...ok, default: { description: 'Anything else.' } } } } },
      webhooks: { 'session.complete': { post: { responses: { default: { description: 'Received.' } } } } },
    }),
    errors: [
      {
        path: ['paths', '/v1/health', 'get', 'responses'],
        message: /^The responses have a `default`, which is not allowed/,
      },
      { path: ['webhooks', 'session.complete', 'post', 'responses'] },
    ],
  },
]);
