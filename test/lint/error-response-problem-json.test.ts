import { openapi, testRule } from './testRule.js';

const problem = { type: 'object', required: ['type', 'title', 'status', 'detail'] };
const body = (status: number) => ({
  type: `https://problems.decision-board.example/${status === 404 ? 'not-found' : 'conflict'}`,
  title: status === 404 ? 'Not found' : 'Conflict',
  status,
  detail: 'No session ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E in this workspace.',
});
const problemResponse = (examples: Record<string, unknown> | undefined, mediaType = 'application/problem+json') => ({
  description: 'A problem.',
  content: { [mediaType]: { schema: problem, ...(examples === undefined ? {} : { examples }) } },
});
const ok = { '200': { description: 'OK.' } };

testRule('error-response-problem-json', [
  {
    name: 'accepts problem+json errors with an example of their own status (a range takes any status in it)',
    document: openapi({
      paths: {
        '/v1/sessions/{id}': {
          get: {
            responses: {
              ...ok,
              '404': { $ref: '#/components/responses/NotFound' },
              '4XX': problemResponse({ conflict: { summary: 'A conflict', value: body(409) } }),
            },
          },
        },
      },
      webhooks: { 'session.complete': { post: { responses: { '2XX': { description: 'Received.' } } } } },
      components: { responses: { NotFound: problemResponse({ missing: { summary: 'Missing', value: body(404) } }) } },
    }),
    errors: [],
  },
  {
    name: 'rejects an error served as application/json, or with a second media type',
    document: openapi({
      paths: {
        '/v1/sessions/{id}': {
          get: {
            responses: {
              ...ok,
              '404': problemResponse({ missing: { value: body(404) } }, 'application/json'),
              '409': {
                description: 'Conflict.',
                content: {
                  'application/problem+json': { schema: problem, examples: { conflict: { value: body(409) } } },
                  'text/plain': { schema: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    }),
    errors: [
      {
        path: ['paths', '/v1/sessions/{id}', 'get', 'responses', '404'],
        message: /^Error response 404 must be served as `application\/problem\+json`/,
      },
      {
        path: ['paths', '/v1/sessions/{id}', 'get', 'responses', '404', 'content', 'application/json'],
        message: /serves `application\/json`/,
      },
      {
        path: ['paths', '/v1/sessions/{id}', 'get', 'responses', '409', 'content', 'text/plain'],
        message: /serves `text\/plain`/,
      },
    ],
  },
  {
    name: 'rejects a problem without a named example, and an example whose status is not the code',
    document: openapi({
      paths: {
        '/v1/sessions/{id}': {
          get: {
            responses: {
              ...ok,
              '404': problemResponse(undefined),
              '409': problemResponse({ copied: { summary: 'Copied', value: body(404) } }),
            },
          },
        },
      },
    }),
    errors: [
      {
        path: ['paths', '/v1/sessions/{id}', 'get', 'responses', '404', 'content', 'application/problem+json'],
        message: /has no named example/,
      },
      {
        path: [
          'paths',
          '/v1/sessions/{id}',
          'get',
          'responses',
          '409',
          'content',
          'application/problem+json',
          'examples',
          'copied',
        ],
        message: /^Example `copied` of error response 409 has status 404; it must be 409/,
      },
    ],
  },
  {
    name: 'rejects a webhook error response that is not a problem',
    document: openapi({
      webhooks: {
        'session.complete': {
          post: { responses: { '2XX': { description: 'Received.' }, '500': { description: 'Receiver fault.' } } },
        },
      },
    }),
    errors: [{ path: ['webhooks', 'session.complete', 'post', 'responses', '500'], message: /must be served as/ }],
  },
]);
