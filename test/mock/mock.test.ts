/**
 * The mock as clients meet it: one real Prism process for the whole file, on a free loopback port,
 * serving the mock document of the bundled contract. Every operation is called with valid requests built
 * from its examples, every named example of every response is selected with `Prefer`, and invalid,
 * unauthenticated and misrouted requests get the contract's problems.
 */
import { EventSource } from 'eventsource';
import type { MediaTypeObject, ResponseObject } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { listOperations, type OperationEntry } from '../../src/contract/operations.js';
import { childPointer, resolve } from '../../src/contract/pointer.js';
import { createContractValidator } from '../../src/contract/validator.js';
import { parseEventStream, type EventStreamEvent } from '../../src/contract/sse.js';
import { startMock, type RunningMock } from '../../src/mock/mock.js';
import { freePort } from '../../src/mock/prism.js';
import { bearer, exampleRequests } from './requests.js';
import { checkResponse, mediaTypeOf, type ReceivedResponse } from './responses.js';

const contract = loadContract();
const validator = createContractValidator(contract);
const operations = listOperations(contract).filter((entry) => entry.source === 'paths');
const problemBase = (contract as unknown as { 'x-problem-types': { base_uri: string } })['x-problem-types'].base_uri;

let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: await freePort() });
}, 180_000);

afterAll(async () => {
  await mock?.stop();
});

async function send(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | undefined } = {},
): Promise<ReceivedResponse> {
  const response = await fetch(`${mock.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: init.headers ?? {},
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The named examples of every documented response of an operation, as the mock document has them. */
interface ResponseExample {
  status: string;
  name: string | undefined;
  value: unknown;
}

function responseExamples(entry: OperationEntry): ResponseExample[] {
  const pointer = entry.pointer;
  return Object.keys(entry.operation.responses ?? {}).flatMap((status): ResponseExample[] => {
    const response = resolve<ResponseObject>(mock.document, childPointer(pointer, 'responses', status));
    const media = Object.keys(response.node.content ?? {});
    const named = media.flatMap((mediaType) => {
      const node = resolve<MediaTypeObject>(mock.document, childPointer(response.pointer, 'content', mediaType));
      return Object.keys(node.node.examples ?? {}).map((name) => {
        const example = resolve<{ value: unknown }>(mock.document, childPointer(node.pointer, 'examples', name));
        return { status, name, value: example.node.value };
      });
    });
    return named.length > 0 ? named : [{ status, name: undefined, value: undefined }];
  });
}

function expectContractProblem(response: ReceivedResponse, status: number, slug: string): Record<string, unknown> {
  expect(response.status).toBe(status);
  expect(mediaTypeOf(response)).toBe('application/problem+json');
  const body = JSON.parse(response.text) as Record<string, unknown>;
  expect(body['type']).toBe(`${problemBase}${slug}`);
  expect(body['status']).toBe(status);
  expect(validator.validate('#/components/schemas/Problem', body).errors).toEqual([]);
  return body;
}

describe('every operation answers valid requests built from its examples', () => {
  test.each(operations.map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry] as const))(
    '%s',
    async (_, entry) => {
      for (const request of exampleRequests(contract, entry)) {
        const response = await send(request.path, request);
        expect(response.status, `${request.example ?? 'no body'}: ${response.text.slice(0, 300)}`).toBeLessThan(300);
        expect(checkResponse(contract, validator, entry, response), request.example).toEqual([]);
      }
    },
  );
});

describe('every documented response and named example can be selected with Prefer', () => {
  test.each(operations.map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry] as const))(
    '%s',
    async (_, entry) => {
      const [request] = exampleRequests(contract, entry);
      if (request === undefined) {
        throw new Error(`${entry.path} has no example request`);
      }
      for (const example of responseExamples(entry)) {
        const prefer = `code=${example.status}${example.name === undefined ? '' : `, example=${example.name}`}`;
        const response = await send(request.path, { ...request, headers: { ...request.headers, Prefer: prefer } });
        const label = `${prefer}: ${response.text.slice(0, 300)}`;
        expect(response.status, label).toBe(Number(example.status));
        expect(checkResponse(contract, validator, entry, response), label).toEqual([]);
        if (example.name !== undefined) {
          const received: unknown = mediaTypeOf(response).endsWith('json') ? JSON.parse(response.text) : response.text;
          expect(received, label).toEqual(example.value);
        }
      }
    },
  );

  test('the start variants A1, A2 and B each come back', async () => {
    const [request] = exampleRequests(
      contract,
      operations.find((entry) => entry.operationId === 'startSession')!,
    );
    for (const [name, schema] of [
      ['variant_a1', 'StartSessionResponseA1'],
      ['variant_a2', 'StartSessionResponseA2'],
      ['variant_b', 'StartSessionResponseB'],
    ] as const) {
      const headers = { ...request!.headers, Prefer: `code=202, example=${name}` };
      const response = await send(request!.path, { ...request!, headers });
      expect(response.status).toBe(202);
      expect(validator.validate(`#/components/schemas/${schema}`, JSON.parse(response.text)).errors, name).toEqual([]);
    }
  });

  test('links in example bodies point at the mock', async () => {
    const response = await send('/v1/sessions', {
      method: 'POST',
      headers: { Authorization: bearer, 'Content-Type': 'application/json', Prefer: 'code=202, example=variant_a2' },
      body: JSON.stringify({ mode: 'stress_test', title: 'EU launch', synths: ['cfo', 'skeptic'], rounds: 2 }),
    });
    const body = JSON.parse(response.text) as { events_url: string };
    expect(body.events_url.startsWith(`${mock.baseUrl}/v1/sessions/`)).toBe(true);
    const events = await send(new URL(body.events_url).pathname, { headers: { Authorization: bearer } });
    expect(events.status).toBe(200);
  });
});

describe('requests that fail validation get the contract problems', () => {
  const start = { method: 'POST', headers: { Authorization: bearer, 'Content-Type': 'application/json' } };

  test('a body that fails the schema is 400 invalid-request, violations in sl-violations', async () => {
    const response = await send('/v1/sessions', { ...start, body: JSON.stringify({ mode: 42, synths: ['cfo'] }) });
    expectContractProblem(response, 400, 'invalid-request');
    const violations = JSON.parse(response.headers.get('sl-violations') ?? '[]') as Array<{ location: string[] }>;
    expect(violations.some((violation) => violation.location.join('.').startsWith('request.body'))).toBe(true);
  });

  test('a body that is not JSON is 400 invalid-request, with the version header', async () => {
    const response = await send('/v1/sessions', { ...start, body: '{"mode":' });
    expectContractProblem(response, 400, 'invalid-request');
    expect(response.headers.get('x-service-api-version')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test('a body over 1 MiB is 413 payload-too-large', async () => {
    const body = JSON.stringify({ mode: 'stress_test', context: 'x'.repeat(1_100_000) });
    expectContractProblem(await send('/v1/sessions', { ...start, body }), 413, 'payload-too-large');
  });

  test('a write without its required body is 400 invalid-request', async () => {
    expectContractProblem(await send('/v1/sessions', start), 400, 'invalid-request');
  });

  test('a malformed path parameter and query parameter are 400 invalid-request', async () => {
    const headers = { Authorization: bearer };
    expectContractProblem(await send('/v1/sessions/not-a-session-id', { headers }), 400, 'invalid-request');
    expectContractProblem(await send('/v1/sessions?limit=0', { headers }), 400, 'invalid-request');
  });

  test('a body in another media type is 415 unsupported-media-type', async () => {
    const headers = { ...start.headers, 'Content-Type': 'text/plain' };
    const response = await send('/v1/sessions', { ...start, headers, body: 'hello' });
    expectContractProblem(response, 415, 'unsupported-media-type');
  });

  test.each([
    ['no Authorization header', {}],
    ['another scheme', { Authorization: 'Basic c2tfdGVzdDp4' }],
    ['a scheme without a token', { Authorization: 'Bearer' }],
  ])('%s is 401 unauthorized with WWW-Authenticate', async (_, headers: Record<string, string>) => {
    const response = await send('/v1/sessions', { headers });
    expectContractProblem(response, 401, 'unauthorized');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  });

  test('the unauthenticated health probe needs no token', async () => {
    expect((await send('/v1/health')).status).toBe(200);
  });
});

describe('routing errors get the contract problems, not Prism’s', () => {
  const deepUnknown = '/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E/shares/shr_1/revoke/again';
  test.each(['/v1/nope', '/nope', '/', '/v1/health/', deepUnknown])(
    'an unknown path %s is 404 not-found',
    async (path) => {
      expectContractProblem(await send(path, { headers: { Authorization: bearer } }), 404, 'not-found');
      expectContractProblem(await send(path, { method: 'POST' }), 404, 'not-found');
    },
  );

  test.each([
    ['PUT', '/v1/sessions', 'GET, POST'],
    ['DELETE', '/v1/health', 'GET'],
    ['GET', '/v1/sessions/plan', 'POST'],
    ['POST', '/v1/sessions/not-an-id', 'GET, DELETE, PATCH'],
  ])('%s %s is 405 method-not-allowed with Allow', async (method, path, allow) => {
    const response = await send(path, { method });
    expectContractProblem(response, 405, 'method-not-allowed');
    expect(response.headers.get('allow')?.split(', ').sort()).toEqual(allow.split(', ').sort());
  });
});

describe('event streams', () => {
  test('an EventSource client receives the whole run and every event validates', async () => {
    const entry = operations.find((candidate) => candidate.operationId === 'streamSessionEvents')!;
    const schema = childPointer(entry.pointer, 'responses', '200', 'content', 'text/event-stream', 'schema');
    const names = ['synth.message', 'round.complete', 'session.complete', 'session.failed', 'session.cancelled'];
    const received = await new Promise<EventStreamEvent[]>((done, fail) => {
      const events: EventStreamEvent[] = [];
      const source = new EventSource(`${mock.baseUrl}/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E/events`, {
        fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, Authorization: bearer } }),
      });
      for (const name of names) {
        source.addEventListener(name, (message) => {
          events.push({ event: message.type, id: message.lastEventId, data: message.data });
          if (name.startsWith('session.')) {
            source.close();
            done(events);
          }
        });
      }
      source.addEventListener('error', (error) => {
        source.close();
        fail(new Error(`EventSource failed: ${error.message ?? 'closed'}`));
      });
    });
    const media = childPointer(entry.pointer, 'responses', '200', 'content', 'text/event-stream');
    const run = resolve<{ 'x-stream-example': string }>(contract, media).node['x-stream-example'];
    expect(received.map((event) => event.event)).toEqual(parseEventStream(run).events.map((event) => event.event));
    for (const event of received) {
      // EventSource does not expose `retry`; the other fields must match the per-event schema.
      expect(validator.validate(schema, event).errors).toEqual([]);
    }
  });
});

describe('browsers', () => {
  test('a CORS preflight is answered', async () => {
    const response = await send('/v1/sessions', {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).not.toBeNull();
  });
});
