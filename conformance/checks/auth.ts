/**
 * Authentication (seed "Authentication"): every authenticated operation refuses missing, invalid and
 * wrongly-schemed credentials with 401; the health probe needs none; a valid key is accepted.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { Credentials } from '../harness/http.js';
import { authenticatedOperations, exampleRequest } from '../harness/requests.js';
import { expectProblem, expectStatus } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

const check = checksOf('auth');

async function callEveryOperation(
  ctx: CheckContext,
  credentials: Credentials,
  requirement: string,
  what: string,
  onEach?: (exchange: Awaited<ReturnType<CheckContext['http']['send']>>) => void,
): Promise<void> {
  for (const operation of authenticatedOperations(ctx.contract)) {
    const request = exampleRequest(ctx.contract, operation);
    const exchange = await ctx.http.send({
      method: request.method,
      path: request.path,
      ...(request.body === undefined ? {} : { json: request.body }),
      credentials,
      // Event streams are refused before they start; a stream that starts anyway must not hold the check.
      timeoutMs: 5_000,
    });
    expectProblem(ctx, requirement, exchange, 401, 'unauthorized', `${request.method} ${operation.path} ${what}`);
    onEach?.(exchange);
  }
}

export const missingToken = check('missing-token', ['AUTH-001', 'AUTH-006'], {
  title: 'Every authenticated operation answers 401 without credentials',
  async run(ctx) {
    await callEveryOperation(ctx, { kind: 'none' }, 'AUTH-001', 'without credentials', (exchange) => {
      if (exchange.response?.status !== 401) {
        return;
      }
      const challenge = exchange.response.headers['www-authenticate'] ?? '';
      ctx.expect(
        'AUTH-006',
        /^\s*bearer\b/i.test(challenge),
        {
          kind: 'header',
          message: `${exchange.request.method} ${exchange.request.url}: no Bearer challenge`,
          expected: 'WWW-Authenticate: Bearer …',
          got: challenge || null,
          evidence: exchange,
        },
        'WWW-Authenticate names Bearer',
      );
    });
  },
});

export const invalidToken = check('invalid-token', ['AUTH-002'], {
  title: 'Every authenticated operation answers 401 to a key that does not exist',
  // A mock checks only that a bearer token is present.
  preconditions: ['live'],
  async run(ctx) {
    const forged = `sk_test_${randomBytes(20).toString('hex')}`;
    await callEveryOperation(ctx, { kind: 'bearer', key: forged }, 'AUTH-002', 'with a key that does not exist');
  },
});

export const wrongScheme = check('wrong-scheme', ['AUTH-003'], {
  title: 'A valid key under another scheme than Bearer answers 401',
  async run(ctx) {
    const key = ctx.http.authorization()?.replace(/^Bearer /, '') ?? '';
    const schemes: Array<[string, string]> = [
      ['Basic', `Basic ${Buffer.from(`${key}:`).toString('base64')}`],
      ['Token', `Token ${key}`],
      ['no scheme', key],
    ];
    for (const [name, authorization] of schemes) {
      const exchange = await ctx.http.get('/v1/sessions', { credentials: { kind: 'raw', authorization } });
      expectProblem(ctx, 'AUTH-003', exchange, 401, 'unauthorized', `GET /v1/sessions with the key under ${name}`);
    }
  },
});

export const healthWithoutToken = check('health-without-token', ['AUTH-004'], {
  title: 'The health probe answers 200 without credentials',
  async run(ctx) {
    const exchange = await ctx.anonymous.get('/v1/health');
    expectStatus(
      ctx,
      'AUTH-004',
      exchange,
      200,
      'GET /v1/health without credentials did not answer 200',
      'GET /v1/health without credentials answered 200',
    );
  },
});

export const validToken = check('valid-token', ['AUTH-005', 'AUTH-007'], {
  title: 'A valid bearer key is accepted, whatever the case of the scheme',
  async run(ctx) {
    const key = ctx.http.authorization()?.replace(/^Bearer /, '') ?? '';
    const exchange = await ctx.http.get('/v1/sessions');
    expectStatus(
      ctx,
      'AUTH-005',
      exchange,
      200,
      'GET /v1/sessions with the key was not accepted',
      'GET /v1/sessions with Authorization: Bearer <key> answered 200',
    );
    for (const scheme of ['bearer', 'BEARER']) {
      const variant = await ctx.http.get('/v1/sessions', {
        credentials: { kind: 'raw', authorization: `${scheme} ${key}` },
      });
      expectStatus(
        ctx,
        'AUTH-007',
        variant,
        200,
        `the scheme written "${scheme}" was refused`,
        `the scheme written "${scheme}" was accepted`,
      );
    }
  },
});

export const authChecks = [missingToken, invalidToken, wrongScheme, healthWithoutToken, validToken];
