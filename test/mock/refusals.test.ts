/**
 * The mock's refusals describe the request that was refused: for every status the mock refuses with
 * (400, 401, 404, 405, 413, 415) the problem's `instance` is the request's path, and its `detail` and
 * `errors` name what is wrong with that request, not with the contract's static example. A response the
 * client picks with `Prefer` still comes back exactly as the contract writes it.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { resolve } from '../../src/contract/pointer.js';
import { createContractValidator } from '../../src/contract/validator.js';
import { startMock, type RunningMock } from '../../src/mock/mock.js';
import { freePort } from '../../src/mock/prism.js';
import { bearer } from './requests.js';

const contract = loadContract();
const validator = createContractValidator(contract);
const problemBase = 'https://problems.decision-board.example/';

/** Every `detail` the contract's own problem examples carry: a refusal must not be one of them. */
const staticDetails = new Set(
  Object.values((contract.components?.examples ?? {}) as Record<string, { value?: { detail?: unknown } }>)
    .map((example) => example.value?.detail)
    .concat(
      Object.keys(contract.components?.responses ?? {}).flatMap((name) => {
        const content = resolve<{ content?: Record<string, { examples?: Record<string, unknown> }> }>(
          contract,
          `#/components/responses/${name}`,
        ).node.content;
        return Object.keys(content?.['application/problem+json']?.examples ?? {}).map(
          (example) =>
            resolve<{ value: { detail?: unknown } }>(
              contract,
              `#/components/responses/${name}/content/application~1problem+json/examples/${example}`,
            ).node.value.detail,
        );
      }),
    )
    .filter((detail): detail is string => typeof detail === 'string'),
);

let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: await freePort() });
}, 120_000);

afterAll(async () => {
  await mock?.stop();
});

interface Refused {
  status: number;
  headers: Headers;
  body: {
    type: string;
    status: number;
    detail: string;
    instance: string;
    errors: Array<{ pointer: string; detail: string }>;
  };
}

async function send(path: string, init: RequestInit = {}): Promise<Refused> {
  const response = await fetch(`${mock.baseUrl}${path}`, init);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return { status: response.status, headers: response.headers, body: (await response.json()) as Refused['body'] };
}

/** The refusal is the contract's problem of `slug`, at `instance`, with errors at `pointers`. */
function expectRefusal(refused: Refused, status: number, slug: string, instance: string, pointers: string[]): void {
  expect(refused.status).toBe(status);
  expect(refused.body.type).toBe(`${problemBase}${slug}`);
  expect(refused.body.status).toBe(status);
  expect(validator.validate('#/components/schemas/Problem', refused.body).errors).toEqual([]);
  expect(refused.body.instance).toBe(instance);
  expect(staticDetails.has(refused.body.detail), refused.body.detail).toBe(false);
  expect(refused.body.errors.map((error) => error.pointer)).toEqual(expect.arrayContaining(pointers));
  // The detail leads with the first violation, in the words of its `errors` entry.
  expect(refused.body.detail).toContain(refused.body.errors[0]!.detail.split(';')[0]!);
}

const auth = { Authorization: bearer };
const json = { ...auth, 'Content-Type': 'application/json' };

describe('400 invalid-request names the violation of the request', () => {
  test('a path parameter that breaks its pattern', async () => {
    const refused = await send('/v1/sessions/ses_1', { headers: auth });
    expectRefusal(refused, 400, 'invalid-request', '/v1/sessions/ses_1', ['#/path/id']);
    expect(refused.body.detail).toContain('#/path/id must match pattern');
    // Prism's own findings are still there for tools that read them.
    expect(JSON.parse(refused.headers.get('sl-violations') ?? '[]')).not.toEqual([]);
  });

  test('a query parameter out of range', async () => {
    const refused = await send('/v1/sessions?limit=0', { headers: auth });
    expectRefusal(refused, 400, 'invalid-request', '/v1/sessions', ['#/query/limit']);
    expect(refused.body.detail).toContain('#/query/limit must be >= 1');
  });

  test('a body member of the wrong type', async () => {
    const body = JSON.stringify({ mode: 42, synths: ['cfo'] });
    const refused = await send('/v1/sessions', { method: 'POST', headers: json, body });
    expectRefusal(refused, 400, 'invalid-request', '/v1/sessions', ['#/body/mode']);
  });

  test('a missing body', async () => {
    const refused = await send('/v1/sessions', { method: 'POST', headers: json });
    expectRefusal(refused, 400, 'invalid-request', '/v1/sessions', ['#/body']);
  });

  test('a path whose percent-encoding does not decode', async () => {
    const refused = await send('/v1/sessions/%E0%A4%A', { headers: auth });
    expectRefusal(refused, 400, 'invalid-request', '/v1/sessions/%E0%A4%25A', ['#/path']);
  });

  test('a body that is not JSON, with the parser’s reason', async () => {
    const refused = await send('/v1/sessions', { method: 'POST', headers: json, body: '{"mode":' });
    expectRefusal(refused, 400, 'invalid-request', '/v1/sessions', ['#/body']);
    expect(refused.body.detail).toMatch(/not valid JSON: .+/);
  });
});

describe('401 unauthorized says what is wrong with the Authorization header', () => {
  test.each([
    ['no header', {}, /missing/],
    ['another scheme', { Authorization: 'Basic c2tfdGVzdDp4' }, /scheme "Basic"/],
    ['a scheme without a token', { Authorization: 'Bearer' }, /no token/],
  ])('%s', async (_, headers: Record<string, string>, reason) => {
    const refused = await send('/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E/events', { headers });
    expectRefusal(refused, 401, 'unauthorized', '/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E/events', [
      '#/header/Authorization',
    ]);
    expect(refused.body.detail).toMatch(reason);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  });
});

describe('routing refusals name the path and method sent', () => {
  test('404 not-found for an unknown path', async () => {
    const refused = await send('/v1/sesions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E', { headers: auth });
    expectRefusal(refused, 404, 'not-found', '/v1/sesions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E', ['#/path']);
    expect(refused.body.detail).toContain('/v1/sesions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E');
  });

  test('405 method-not-allowed for a method the path does not offer', async () => {
    const refused = await send('/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E/cancel', { method: 'DELETE' });
    expectRefusal(refused, 405, 'method-not-allowed', '/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E/cancel', ['#/path']);
    expect(refused.body.detail).toContain('not DELETE');
    expect(refused.headers.get('allow')).toBe('POST');
  });
});

describe('body refusals name the body sent', () => {
  test('413 payload-too-large with the declared size', async () => {
    const body = JSON.stringify({ mode: 'stress_test', context: 'x'.repeat(1_100_000) });
    const refused = await send('/v1/sessions', { method: 'POST', headers: json, body });
    expectRefusal(refused, 413, 'payload-too-large', '/v1/sessions', ['#/body']);
    expect(refused.body.detail).toContain(String(Buffer.byteLength(body)));
  });

  test('415 unsupported-media-type with the media type sent and the ones taken', async () => {
    const headers = { ...auth, 'Content-Type': 'text/plain' };
    const refused = await send('/v1/sessions', { method: 'POST', headers, body: 'hello' });
    expectRefusal(refused, 415, 'unsupported-media-type', '/v1/sessions', ['#/header/Content-Type']);
    expect(refused.body.detail).toContain('text/plain');
    expect(refused.body.detail).toContain('application/json');
  });
});

describe('request targets', () => {
  test('the absolute form is routed by its path (RFC 9112 §3.2.2)', async () => {
    const status = await new Promise<number | undefined>((done, fail) => {
      const target = `${mock.baseUrl}/v1/health`;
      const { hostname, port } = new URL(mock.baseUrl);
      request({ host: hostname, port, path: target }, (response) => {
        response.resume();
        done(response.statusCode);
      })
        .on('error', fail)
        .end();
    });
    expect(status).toBe(200);
  });
});

describe('a response the client picks is served as written', () => {
  test('Prefer example= returns the contract’s example unchanged', async () => {
    const headers = { ...json, Prefer: 'code=400, example=invalid_body' };
    const response = await fetch(`${mock.baseUrl}/v1/sessions`, { method: 'POST', headers, body: '{"mode":42}' });
    const written = resolve<{ value: unknown }>(
      contract,
      '#/components/responses/InvalidRequest/content/application~1problem+json/examples/invalid_body',
    ).node.value;
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(written);
  });
});
