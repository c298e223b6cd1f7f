/**
 * The skeleton built from the contract: every operation is routed, everything else is a problem of the
 * catalogue (404 unknown route, 405 wrong method with Allow, 413, 415, 400 for bad JSON and for values
 * that fail the contract's schemas, with `errors[].pointer`), and every answer carries the version header.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { listOperations } from '../../src/contract/operations.js';
import { startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

async function problemOf(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.headers.get('x-service-api-version')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body['status']).toBe(response.status);
  expect(String(body['detail'])).not.toMatch(/\n\s+at /);
  return body;
}

/** A concrete URL for a path template: `{id}` and friends become ids of the right shape that do not exist. */
function concrete(path: string): string {
  return path
    .replace('/webhooks/{id}', '/webhooks/wh_00000000000000000000000000')
    .replace('/actions/{id}', '/actions/act_00000000000000000000000000')
    .replace('{share_id}', 'shr_00000000000000000000000000')
    .replace('{id}', 'ses_00000000000000000000000000');
}

/** A request with any method (fetch refuses TRACE), answered as status, headers and text. */
function rawRequest(
  method: string,
  path: string,
  body: string,
  contentType: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${server.baseUrl}${path}`,
      { method, headers: { 'content-type': contentType, authorization: `Bearer ${server.key}` } },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: text }));
      },
    );
    // The server may answer and close before a large body is sent.
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('routes from the contract', () => {
  const operations = listOperations(loadContract()).filter((entry) => entry.source === 'paths');

  test('the contract has the operations the server routes', () => {
    expect(operations.length).toBeGreaterThanOrEqual(46);
  });

  test.each(operations.map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry] as const))(
    '%s is routed (without a key: 401, or 200 for the open health probe)',
    async (_, entry) => {
      const response = await server.request(concrete(entry.path), { method: entry.method.toUpperCase(), key: null });
      const open = Array.isArray(entry.operation.security) && entry.operation.security.length === 0;
      if (open) {
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        return;
      }
      const problem = await problemOf(response);
      expect(response.status).toBe(401);
      expect(problem['type']).toBe('https://problems.decision-board.example/unauthorized');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
    },
  );
});

describe('answers outside the operations', () => {
  test('an unknown path is a 404 problem', async () => {
    const response = await server.request('/v1/nothing-here');
    const problem = await problemOf(response);
    expect(response.status).toBe(404);
    expect(problem['type']).toBe('https://problems.decision-board.example/not-found');
  });

  test('a known path with another method is a 405 problem naming the allowed methods', async () => {
    const response = await server.request('/v1/sessions', { method: 'PUT', json: {} });
    const problem = await problemOf(response);
    expect(response.status).toBe(405);
    expect(problem['type']).toBe('https://problems.decision-board.example/method-not-allowed');
    expect(response.headers.get('allow')).toBe('GET, POST');
  });

  test.each([
    ['TRACE', ''],
    ['OPTIONS', ''],
    ['HEAD', ''],
    ['QUERY', '{"x":'],
  ])('%s on a known path is a 405 too, before any body is read', async (method, body) => {
    const answer = await rawRequest(method, '/v1/health', body, 'text/plain');
    expect(answer.status).toBe(405);
    expect(answer.headers['allow']).toBe('GET');
    if (method !== 'HEAD') {
      expect(JSON.parse(answer.body)).toMatchObject({ status: 405 });
    }
  });

  test('a request the HTTP parser refuses (a TRACE with a body) is a 400 problem', async () => {
    const answer = await rawRequest('TRACE', '/v1/health', '{"x":1}', 'application/json');
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.headers['x-service-api-version']).toBe('2026-10-01');
    expect(JSON.parse(answer.body)).toMatchObject({
      status: 400,
      type: 'https://problems.decision-board.example/invalid-request',
    });
  });

  test('an unknown path is a 404 whatever the method and body', async () => {
    const answer = await rawRequest('QUERY', '/v1/nothing-here', 'x'.repeat(2 * 1024 * 1024), 'text/plain');
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  test('a body over 1 MiB is a 413 problem', async () => {
    const response = await server.request('/v1/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'boardroom', context: 'x'.repeat(1024 * 1024) }),
    });
    await problemOf(response);
    expect(response.status).toBe(413);
  });

  test('a body that is not JSON is a 415 problem', async () => {
    const response = await server.request('/v1/sessions', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'mode=boardroom',
    });
    await problemOf(response);
    expect(response.status).toBe(415);
  });

  test('malformed JSON is a 400 problem pointing at the body', async () => {
    const response = await server.request('/v1/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"mode": "boardroom",',
    });
    const problem = await problemOf(response);
    expect(response.status).toBe(400);
    expect(problem['errors']).toEqual([expect.objectContaining({ pointer: '#/body' })]);
  });

  test('a body against the schema is a 400 problem with a pointer per violation', async () => {
    const response = await server.request('/v1/sessions', {
      method: 'POST',
      json: { mode: 'boardroom', synths: ['cfo'], rounds: 11 },
    });
    const problem = await problemOf(response);
    expect(response.status).toBe(400);
    const pointers = (problem['errors'] as Array<{ pointer: string }>).map((violation) => violation.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['#/body/synths', '#/body/rounds']));
  });

  test('an unknown member of a closed request body is refused', async () => {
    const response = await server.request('/v1/sessions/plan', {
      method: 'POST',
      json: { mode: 'boardroom', colour: 'red' },
    });
    const problem = await problemOf(response);
    expect(response.status).toBe(400);
    expect((problem['errors'] as Array<{ pointer: string }>).map((violation) => violation.pointer)).toContain(
      '#/body/colour',
    );
  });

  test('query values are read with their schema types and checked against them', async () => {
    expect((await server.request('/v1/sessions?limit=2')).status).toBe(200);
    const response = await server.request('/v1/sessions?limit=500');
    const problem = await problemOf(response);
    expect(response.status).toBe(400);
    expect(problem['errors']).toEqual([expect.objectContaining({ pointer: '#/query/limit' })]);
    const word = await server.request('/v1/sessions?limit=ten');
    expect((await problemOf(word))['errors']).toEqual([expect.objectContaining({ pointer: '#/query/limit' })]);
  });

  test('a path value of the wrong shape is a 400 problem pointing at the path', async () => {
    const response = await server.request('/v1/sessions/not-a-session-id');
    const problem = await problemOf(response);
    expect(response.status).toBe(400);
    expect((problem['errors'] as Array<{ pointer: string }>)[0]?.pointer).toBe('#/path/id');
  });

  test('a body sent to an operation that takes none is refused', async () => {
    const id = 'ses_00000000000000000000000000';
    const response = await server.request(`/v1/sessions/${id}/archive`, { method: 'POST', json: { now: true } });
    expect(response.status).toBe(400);
    await problemOf(response);
  });

  test('a malformed Idempotency-Key header is a 400 problem pointing at the header', async () => {
    const response = await server.request('/v1/sessions', {
      method: 'POST',
      headers: { 'idempotency-key': 'has space' },
      json: { mode: 'boardroom' },
    });
    const problem = await problemOf(response);
    expect(problem['errors']).toEqual([expect.objectContaining({ pointer: '#/header/Idempotency-Key' })]);
  });
});

describe('headers on every answer', () => {
  test('success and failure carry X-Service-API-Version; counted requests carry the rate-limit fields', async () => {
    for (const path of ['/v1/health', '/v1/sessions', '/v1/nothing']) {
      const response = await server.request(path);
      await response.arrayBuffer();
      expect(response.headers.get('x-service-api-version')).toBe('2026-10-01');
    }
    const counted = await server.request('/v1/sessions');
    await counted.arrayBuffer();
    expect(counted.headers.get('ratelimit')).toMatch(/^"reads";r=\d+;t=\d+$/);
    expect(counted.headers.get('ratelimit-policy')).toBe('"reads";q=3000;w=60');
  });
});
