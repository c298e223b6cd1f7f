/**
 * Problem details: the format of every error the run provoked (a sweep), and the status and slug each
 * kind of bad input gets (seed "Errors"; RFC 9457).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { pathRelativeTo } from '../harness/contract.js';
import { type Exchange, jsonOf, mediaTypeOf } from '../harness/exchange.js';
import { expectProblem, problemSlug } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

const check = checksOf('problems');

/** Signs of a leaked stack trace or internals (RFC 9457 §5: problems must not expose implementation details). */
const leakPatterns: ReadonlyArray<[string, RegExp]> = [
  ['a JavaScript stack frame', /\bat\s+(?:async\s+)?[\w$.<>]+\s+\((?:file:\/\/|node:|\/)[^)]*:\d+:\d+\)/],
  ['a stack frame', /\n\s+at\s+\S+/],
  ['a Node.js internal module', /node:internal\//],
  [
    'a source file path',
    /(?:\/(?:home|usr|src|app|opt|var|srv|Users)\/|[A-Z]:\\)[^\s"']+\.(?:[cm]?[jt]s|py|go|java|rb)\b/,
  ],
  ['a Python traceback', /Traceback \(most recent call last\)/],
  ['a Java exception', /Exception in thread|\tat [\w.$]+\(/],
  ['an SQL error', /SQLITE_[A-Z]+|syntax error at or near|\bSELECT\s+[\w*,\s]+\s+FROM\s+\w+/i],
];

function leaksIn(text: string, secrets: ReadonlySet<string>): string[] {
  const found = leakPatterns.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
  for (const secret of secrets) {
    if (secret.length >= 8 && text.includes(secret)) {
      found.push(`a secret ending …${secret.slice(-4)}`);
    }
  }
  return found;
}

function where(ctx: CheckContext, exchange: Exchange): string {
  return `${exchange.request.method} ${pathRelativeTo(ctx.target.baseUrl, exchange.request.url)} → ${exchange.response?.status}`;
}

export const everyError = check('every-error', ['PROB-001', 'PROB-002', 'PROB-003', 'PROB-004', 'PROB-005'], {
  title: 'Every error response of the run is a well-formed problem',
  phase: 'sweep',
  async run(ctx) {
    const errors = ctx.exchanges().filter((exchange) => (exchange.response?.status ?? 0) >= 400);
    if (errors.length === 0) {
      for (const requirement of ['PROB-001', 'PROB-002', 'PROB-003', 'PROB-004', 'PROB-005']) {
        ctx.skip(requirement, 'the run provoked no error response');
      }
      return;
    }
    const slugByStatus = new Map(ctx.contract.problemTypes.map((type) => [type.status, type.slug]));
    const titles = new Map<string, Map<string, Exchange>>();
    const failed = new Set<string>();
    const fail = (
      requirement: string,
      exchange: Exchange,
      message: string,
      expected: unknown,
      got: unknown,
      kind: 'problem' | 'media-type' | 'leak' = 'problem',
    ): void => {
      failed.add(requirement);
      ctx.fail(requirement, {
        kind,
        message: `${where(ctx, exchange)}: ${message}`,
        expected,
        got,
        evidence: exchange,
      });
    };
    for (const exchange of errors) {
      const status = exchange.response!.status;
      const mediaType = mediaTypeOf(exchange.response!.headers['content-type']);
      if (mediaType !== 'application/problem+json') {
        fail(
          'PROB-001',
          exchange,
          'not served as application/problem+json',
          'application/problem+json',
          exchange.response!.headers['content-type'] ?? null,
          'media-type',
        );
      }
      const body = jsonOf(exchange) as Record<string, unknown> | undefined;
      const missing = ['type', 'title', 'detail'].filter((member) => typeof body?.[member] !== 'string');
      if (typeof body?.['status'] !== 'number') {
        missing.push('status');
      }
      if (missing.length > 0) {
        fail(
          'PROB-002',
          exchange,
          `the problem lacks ${missing.join(', ')}`,
          ['type', 'title', 'status', 'detail'],
          body ?? exchange.response!.body.slice(0, 200),
        );
      } else if (body!['status'] !== status) {
        fail('PROB-002', exchange, 'the problem status differs from the HTTP status', status, body!['status']);
      }
      const expectedSlug = slugByStatus.get(status);
      const slug = problemSlug(exchange);
      if (expectedSlug === undefined || slug !== expectedSlug) {
        fail(
          'PROB-003',
          exchange,
          expectedSlug === undefined
            ? `status ${status} has no slug in the catalog`
            : 'the type does not end with the catalog slug',
          expectedSlug ?? [...slugByStatus.entries()],
          slug ?? null,
        );
      }
      const leaks = leaksIn(exchange.response!.body, ctx.secrets);
      if (leaks.length > 0) {
        fail('PROB-004', exchange, `the body reveals ${leaks.join(', ')}`, 'no internals or secrets', leaks, 'leak');
      }
      if (typeof body?.['type'] === 'string' && typeof body['title'] === 'string') {
        const byTitle = titles.get(body['type']) ?? new Map<string, Exchange>();
        byTitle.set(body['title'], byTitle.get(body['title']) ?? exchange);
        titles.set(body['type'], byTitle);
      }
    }
    for (const [type, byTitle] of titles) {
      if (byTitle.size > 1) {
        failed.add('PROB-005');
        ctx.fail('PROB-005', {
          kind: 'problem',
          message: `type ${type} has ${byTitle.size} titles`,
          expected: 'one title',
          got: [...byTitle.keys()],
          evidence: [...byTitle.values()],
        });
      }
    }
    for (const requirement of ['PROB-001', 'PROB-002', 'PROB-003', 'PROB-004', 'PROB-005']) {
      if (!failed.has(requirement)) {
        ctx.pass(requirement, `${errors.length} error responses checked`);
      }
    }
  },
});

export const invalidBody = check('invalid-body', ['PROB-006', 'PROB-007'], {
  title: 'A body that fails its schema is 400 invalid-request with pointers',
  async run(ctx) {
    const cases: Array<[string, string, unknown]> = [
      [
        'POST /v1/sessions with a wrong type and an unknown member',
        '/v1/sessions',
        { mode: 'boardroom', synths: 'cfo', rounds: 'three', unknown_member: true },
      ],
      ['POST /v1/webhooks without url and events', '/v1/webhooks', { label: 'conformance' }],
    ];
    for (const [what, path, body] of cases) {
      const exchange = await ctx.http.post(path, body);
      if (!expectProblem(ctx, 'PROB-006', exchange, 400, 'invalid-request', what)) {
        continue;
      }
      const violations = (jsonOf(exchange) as { errors?: unknown } | undefined)?.errors;
      const pointed =
        Array.isArray(violations) &&
        violations.length > 0 &&
        violations.every((entry) => typeof (entry as { pointer?: unknown })?.pointer === 'string');
      ctx.expect(
        'PROB-007',
        pointed,
        {
          kind: 'problem',
          message: `${what}: the problem lists no violations with pointers`,
          expected: 'errors: [{pointer, detail}, …]',
          got: violations ?? null,
          evidence: exchange,
        },
        `${what}: ${Array.isArray(violations) ? violations.length : 0} violations with pointers`,
      );
    }
  },
});

/** Starts a session with `body` sent as it is, under `contentType`. */
const postSessionText = (ctx: CheckContext, body: string, contentType: string): Promise<Exchange> =>
  ctx.http.send({ method: 'POST', path: '/v1/sessions', body, headers: { 'content-type': contentType } });

export const malformedJson = check('malformed-json', ['PROB-008'], {
  title: 'A body that is not well-formed JSON is 400 invalid-request',
  async run(ctx) {
    const exchange = await postSessionText(ctx, '{"mode": "boardroom", "synths": [', 'application/json');
    expectProblem(ctx, 'PROB-008', exchange, 400, 'invalid-request', 'POST /v1/sessions with truncated JSON');
  },
});

export const unsupportedMediaType = check('unsupported-media-type', ['PROB-009'], {
  title: 'A body that is not JSON is 415 unsupported-media-type',
  async run(ctx) {
    const exchange = await postSessionText(ctx, 'mode=boardroom&rounds=2', 'application/x-www-form-urlencoded');
    expectProblem(ctx, 'PROB-009', exchange, 415, 'unsupported-media-type', 'POST /v1/sessions with a form body');
  },
});

export const payloadTooLarge = check('payload-too-large', ['PROB-010'], {
  title: 'A body over 1 MiB is 413 payload-too-large',
  async run(ctx) {
    const exchange = await ctx.http.post('/v1/sessions', { mode: 'boardroom', context: 'x'.repeat(1_100_000) });
    expectProblem(ctx, 'PROB-010', exchange, 413, 'payload-too-large', 'POST /v1/sessions with a 1.1 MB body');
  },
});

export const unknownPath = check('unknown-path', ['PROB-011'], {
  title: 'A path the API does not have is 404 not-found',
  async run(ctx) {
    const exchange = await ctx.http.get(`/v1/no-such-resource-${randomBytes(4).toString('hex')}`);
    expectProblem(ctx, 'PROB-011', exchange, 404, 'not-found', 'GET of an unknown path');
  },
});

export const unknownMethod = check('unknown-method', ['PROB-012'], {
  title: 'A method a path does not offer is 405 with Allow',
  async run(ctx) {
    // No body, so the method is the only thing wrong with the request.
    const exchange = await ctx.http.send({ method: 'DELETE', path: '/v1/sessions' });
    if (!expectProblem(ctx, 'PROB-012', exchange, 405, 'method-not-allowed', 'DELETE /v1/sessions')) {
      return;
    }
    const allow = (exchange.response?.headers['allow'] ?? '').toUpperCase().split(/\s*,\s*/);
    ctx.expect(
      'PROB-012',
      allow.includes('GET') && allow.includes('POST'),
      {
        kind: 'header',
        message: 'DELETE /v1/sessions: Allow does not list GET and POST',
        expected: 'Allow: GET, POST',
        got: exchange.response?.headers['allow'] ?? null,
        evidence: exchange,
      },
      'DELETE /v1/sessions: Allow lists GET and POST',
    );
  },
});

export const invalidQuery = check('invalid-query', ['PROB-013'], {
  title: 'A query parameter that fails its schema is 400 invalid-request',
  async run(ctx) {
    for (const limit of ['many', '-5']) {
      const exchange = await ctx.http.get('/v1/sessions', { query: { limit } });
      expectProblem(ctx, 'PROB-013', exchange, 400, 'invalid-request', `GET /v1/sessions?limit=${limit}`);
    }
  },
});

export const notFound = check('not-found', ['PROB-014'], {
  title: 'Every operation on a session that does not exist is 404 not-found',
  preconditions: ['live'],
  async run(ctx) {
    const id = `ses_${randomBytes(16).toString('hex').slice(0, 26)}`;
    const calls: Array<[string, () => Promise<Exchange>]> = [
      ['GET', () => ctx.http.get(`/v1/sessions/${id}`)],
      ['PATCH', () => ctx.http.patch(`/v1/sessions/${id}`, { title: 'renamed' })],
      ['DELETE', () => ctx.http.delete(`/v1/sessions/${id}`)],
      ['POST cancel', () => ctx.http.post(`/v1/sessions/${id}/cancel`, {})],
      ['GET outcomes', () => ctx.http.get(`/v1/sessions/${id}/outcomes`)],
      ['GET decisions', () => ctx.http.get(`/v1/sessions/${id}/decisions`)],
    ];
    for (const [what, call] of calls) {
      expectProblem(ctx, 'PROB-014', await call(), 404, 'not-found', `${what} of a session that does not exist`);
    }
  },
});

export const problemChecks = [
  invalidBody,
  malformedJson,
  unsupportedMediaType,
  payloadTooLarge,
  unknownPath,
  unknownMethod,
  invalidQuery,
  notFound,
  everyError,
];
