import { openapi, testRule } from './testRule.js';

const startA = {
  title: 'StartA',
  type: 'object',
  required: ['mode'],
  properties: { mode: { type: 'string' }, rounds: { type: 'integer' } },
  additionalProperties: false,
  examples: [{ mode: 'boardroom', rounds: 3 }],
};
const startB = {
  title: 'StartB',
  type: 'object',
  required: ['question'],
  properties: { question: { type: 'string' }, session_type: { type: 'string' } },
  additionalProperties: false,
  examples: [{ question: 'Should we launch the Pro plan in the EU this quarter?' }],
};
const start = {
  title: 'Start',
  oneOf: [{ $ref: '#/components/schemas/StartA' }, { $ref: '#/components/schemas/StartB' }],
};
const { examples: _a, ...startAWithoutExamples } = startA;
const { examples: _b, ...startBWithoutExamples } = startB;

/** An operation whose request body is `schema`, with the named media-type examples `examples`. */
const starting = (schema: unknown, examples: Record<string, unknown> = {}) => ({
  '/v1/sessions': {
    post: {
      requestBody: { content: { 'application/json': { schema, examples } } },
      responses: { '202': { description: 'Started.' } },
    },
  },
});

testRule('oneof-exclusive', [
  {
    name: 'accepts $ref branches whose examples each match their own branch alone',
    document: openapi({
      paths: starting(
        { $ref: '#/components/schemas/Start' },
        {
          lineup: { summary: 'Variant A', value: { mode: 'consult' } },
          question: { summary: 'Variant B', value: { question: 'Raise prices?' } },
        },
      ),
      components: { schemas: { Start: start, StartA: startA, StartB: startB } },
    }),
    errors: [],
  },
  {
    name: 'accepts branches proven by named media-type examples only',
    document: openapi({
      paths: starting(
        { $ref: '#/components/schemas/Start' },
        {
          lineup: { summary: 'Variant A', value: { mode: 'consult' } },
          question: { summary: 'Variant B', value: { question: 'Raise prices?' } },
        },
      ),
      components: { schemas: { Start: start, StartA: startAWithoutExamples, StartB: startBWithoutExamples } },
    }),
    errors: [],
  },
  {
    name: 'accepts the branch files of a split contract',
    document: openapi({ paths: starting({ $ref: 'schemas/Start.yaml' }) }),
    files: {
      'schemas/Start.yaml': { title: 'Start', oneOf: [{ $ref: './StartA.yaml' }, { $ref: './StartB.yaml' }] },
      'schemas/StartA.yaml': startA,
      'schemas/StartB.yaml': startB,
    },
    errors: [],
  },
  {
    name: 'rejects an inline branch, in the file it is written in',
    document: openapi({ paths: starting({ $ref: 'schemas/Start.yaml' }) }),
    files: {
      'schemas/Start.yaml': { title: 'Start', oneOf: [{ $ref: './StartA.yaml' }, startB] },
      'schemas/StartA.yaml': startA,
    },
    errors: [{ path: ['oneOf', 1], file: 'schemas/Start.yaml', message: /^Branch 1 of Start is written inline/ }],
  },
  {
    name: 'rejects a branch example that matches another branch too, leaving its branch unproven',
    document: openapi({
      components: {
        schemas: {
          Start: start,
          StartA: {
            title: 'StartA',
            type: 'object',
            required: ['session_id'],
            examples: [{ session_id: 'ses_01JD8M4ZPQ' }],
          },
          StartB: {
            title: 'StartB',
            type: 'object',
            required: ['session_id', 'task_id'],
            examples: [{ session_id: 'ses_01JD8M4ZPQ', task_id: 'task_7Q2M' }],
          },
        },
      },
    }),
    errors: [
      {
        path: ['components', 'schemas', 'StartB'],
        message: /^Branch StartB of Start has no example that matches it alone/,
      },
      {
        path: ['components', 'schemas', 'StartB', 'examples', 0],
        message: /^Example 0 of StartB also validates against `StartA`/,
      },
    ],
  },
  {
    name: 'rejects a named media-type example that matches two branches',
    document: openapi({
      paths: starting(
        { $ref: '#/components/schemas/Start' },
        { both: { summary: 'Both', value: { mode: 'boardroom', question: 'Raise prices?' } } },
      ),
      components: {
        schemas: {
          Start: start,
          StartA: { ...startA, additionalProperties: true },
          StartB: { ...startB, additionalProperties: true },
        },
      },
    }),
    errors: [
      {
        path: [
          'paths',
          '/v1/sessions',
          'post',
          'requestBody',
          'content',
          'application/json',
          'examples',
          'both',
          'value',
        ],
        message: /^Example `both` validates against 2 branches of Start \(`StartA`, `StartB`\)/,
      },
    ],
  },
  {
    name: 'rejects a branch whose example is not valid for it, and a branch without any example',
    document: openapi({
      components: {
        schemas: { Start: start, StartA: { ...startA, examples: [{ mode: 3 }] }, StartB: startBWithoutExamples },
      },
    }),
    errors: [
      { path: ['components', 'schemas', 'StartA'], message: /^Branch StartA of Start has no example/ },
      {
        path: ['components', 'schemas', 'StartA', 'examples', 0],
        message: /^Example 0 of StartA does not validate against StartA itself/,
      },
      { path: ['components', 'schemas', 'StartB'], message: /^Branch StartB of Start has no example/ },
    ],
  },
]);
