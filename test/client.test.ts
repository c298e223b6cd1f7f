/**
 * The typed client: what it sends (runtime, against a local echo server) and what it lets through the
 * compiler (type assertions, checked by `tsc --noEmit` in `npm test`).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import { createBoardClient } from '../src/client.js';
import { collectExamples } from '../src/contract/examples.js';
import { loadContract } from '../src/contract/load.js';
import { findOperation } from '../src/contract/operations.js';
import { createContractValidator } from '../src/contract/validator.js';
import type { components } from '../src/generated/openapi.js';

const document = loadContract();

/** The first named 200 example of `getSession`, served as the echo server's body. */
function sessionExample(): unknown {
  const pointer = findOperation(document, 'getSession')?.pointer;
  const prefix = `${pointer ?? '?'}/responses/200/content/application~1json/examples/`;
  const example = collectExamples(document).find((candidate) => candidate.location.startsWith(prefix));
  if (example === undefined) {
    throw new Error('getSession has no named 200 example');
  }
  return example.value;
}

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
}

describe('createBoardClient', () => {
  const body = sessionExample();
  const received: Received[] = [];
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      received.push({ method: request.method, url: request.url, headers: request.headers });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test('sends the bearer key and the version pin, and parses the typed body', async () => {
    const client = createBoardClient({ baseUrl, apiKey: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc', apiVersion: '2026-04-01' });
    const { data, error, response } = await client.GET('/v1/sessions/{id}', {
      params: { path: { id: 'ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E' }, query: { wait_ms: 60000 } },
    });

    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    expect(data).toEqual(body);
    expect(createContractValidator(document).responseBody('getSession', 200)?.(data)).toBe(true);
    expectTypeOf(data).toEqualTypeOf<components['schemas']['Session'] | undefined>();

    expect(received.at(-1)).toMatchObject({
      method: 'GET',
      url: '/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E?wait_ms=60000',
      headers: { authorization: 'Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc', 'x-service-api-version': '2026-04-01' },
    });
  });

  test('sends no version pin unless asked', async () => {
    const client = createBoardClient({ baseUrl, apiKey: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc' });
    await client.GET('/v1/sessions/{id}', { params: { path: { id: 'ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E' } } });

    expect(received.at(-1)?.headers['authorization']).toBe('Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc');
    expect(received.at(-1)?.headers).not.toHaveProperty('x-service-api-version');
  });

  test('refuses at compile time what the contract does not allow', () => {
    const client = createBoardClient({ baseUrl, apiKey: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc' });
    // Never called: these lines exist for the type checker, which fails `npm test` if an error goes missing.
    const misuses = () => [
      // @ts-expect-error `colour` is a member of no start request variant.
      client.POST('/v1/sessions', { body: { colour: 'red' } }),
      // @ts-expect-error the session id is a required path parameter.
      client.GET('/v1/sessions/{id}', {}),
      // @ts-expect-error no such path in the contract.
      client.GET('/v1/sessionz', {}),
    ];
    expectTypeOf(misuses).toBeFunction();
  });
});
