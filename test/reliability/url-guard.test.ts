/**
 * The webhook URL guard end to end (docs/reliability.md "Webhook URL guard"): subscriptions of the
 * reference server pointed at loopback, private, link-local and unique-local addresses, written in every
 * form a URL allows (decimal, hex, octal and short IPv4, IPv4-mapped IPv6, NAT64, 6to4 and Teredo prefixes
 * that embed an IPv4 address, a name that resolves to loopback), are never contacted: a real receiver
 * listens on the loopback address and port they name and gets nothing, and each attempt is listed as
 * refused before connecting. A receiver that redirects is not followed, wherever the redirect points. A
 * host name is checked by what it resolves to at each attempt.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postDelivery } from '../../src/webhooks/delivery-request.js';
import { aWholeRun, lineupStart, settle, startSession, startTestServer, type TestServer } from '../server/harness.js';

interface Listener {
  port: number;
  hits: string[];
  close(): Promise<void>;
}

/** A loopback HTTP server recording each request's path; `answer` decides status and headers. */
async function listen(
  answer: (path: string) => { status: number; headers?: Record<string, string> } = () => ({ status: 200 }),
): Promise<Listener> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? '');
    request.resume();
    const { status, headers } = answer(request.url ?? '');
    response.writeHead(status, headers).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Attempt {
  response_code: number | null;
  error: string | null;
}

async function subscribe(server: TestServer, url: string): Promise<{ status: number; id?: string; detail?: string }> {
  const response = await server.request('/v1/webhooks', {
    method: 'POST',
    json: { label: 'Guarded', url, events: ['session.complete'] },
  });
  const body = (await response.json()) as { subscription?: { id: string }; detail?: string };
  return { status: response.status, id: body.subscription?.id, detail: body.detail };
}

async function attemptsOf(server: TestServer, id: string): Promise<Attempt[]> {
  const response = await server.request(`/v1/webhooks/${id}/deliveries`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: Attempt[] }).items;
}

/** Finishes a session so that `session.complete` is sent to every subscription, and waits for the attempts. */
async function completeASession(server: TestServer): Promise<void> {
  await startSession(server, lineupStart(1));
  await settle(server, aWholeRun, 60_000);
}

describe('private addresses in every spelling', () => {
  let server: TestServer;
  let receiver: Listener;

  beforeAll(async () => {
    server = await startTestServer({ allowPrivateWebhookUrls: false });
    receiver = await listen();
  });

  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  const spellings = (port: number): string[] => [
    `http://127.0.0.1:${port}/hooks`,
    `http://localhost:${port}/hooks`,
    `http://2130706433:${port}/hooks`,
    `http://0x7f000001:${port}/hooks`,
    `http://0x7f.0.0.1:${port}/hooks`,
    `http://0177.0.0.1:${port}/hooks`,
    `http://127.1:${port}/hooks`,
    `http://0.0.0.0:${port}/hooks`,
    `http://0:${port}/hooks`,
    `http://[::ffff:127.0.0.1]:${port}/hooks`,
    `http://[::ffff:7f00:1]:${port}/hooks`,
    `http://[0:0:0:0:0:ffff:7f00:0001]:${port}/hooks`,
    `http://[::1]:${port}/hooks`,
    `http://10.0.0.1:${port}/hooks`,
    `http://172.16.0.1:${port}/hooks`,
    `http://192.168.1.1:${port}/hooks`,
    `http://100.64.0.1:${port}/hooks`,
    'http://169.254.169.254/latest/meta-data/',
    `http://[fd00::1]:${port}/hooks`,
    `http://[fe80::1]:${port}/hooks`,
    `http://[::ffff:10.0.0.1]:${port}/hooks`,
    `https://127.0.0.1:${port}/hooks`,
    `http://[64:ff9b::7f00:1]:${port}/hooks`,
    `http://[64:ff9b:1::a00:1]:${port}/hooks`,
    `http://[::ffff:0:7f00:1]:${port}/hooks`,
    `http://[2002:7f00:1::1]:${port}/hooks`,
    `http://[2001::1]:${port}/hooks`,
    `http://198.18.0.1:${port}/hooks`,
    `http://192.0.0.8:${port}/hooks`,
  ];

  test('no spelling reaches the receiver; each subscription is refused or its attempts are', async () => {
    const created: Array<{ url: string; id: string }> = [];
    for (const url of spellings(receiver.port)) {
      const result = await subscribe(server, url);
      // A server may refuse the URL when it is given, or accept it and refuse each attempt.
      if (result.status === 201 && result.id !== undefined) {
        created.push({ url, id: result.id });
      } else {
        expect(result, url).toMatchObject({ status: 400, detail: expect.stringMatching(/address/) });
      }
    }
    await completeASession(server);
    expect(receiver.hits).toEqual([]);
    for (const { url, id } of created) {
      const attempts = await attemptsOf(server, id);
      expect(attempts.length, `${url} had an attempt`).toBeGreaterThan(0);
      for (const attempt of attempts) {
        expect(attempt, url).toMatchObject({
          response_code: null,
          error: expect.stringMatching(
            /^Not sent: .*(loopback|private|link-local|unique-local|unspecified|carrier-grade NAT|IPv4-translation|non-public) address/,
          ),
        });
      }
    }
  });
});

describe('redirects', () => {
  let server: TestServer;
  let target: Listener;
  let redirector: Listener;

  beforeAll(async () => {
    // Loopback receivers are allowed here, so that the redirecting receiver itself can be reached.
    server = await startTestServer({ allowPrivateWebhookUrls: true });
    target = await listen();
    redirector = await listen((path) => {
      const [, status = '302', where = 'loopback'] = /^\/(\d{3})\/(\w+)/.exec(path) ?? [];
      const location =
        where === 'metadata' ? 'http://169.254.169.254/latest/meta-data/' : `http://127.0.0.1:${target.port}/stolen`;
      return { status: Number(status), headers: { Location: location } };
    });
  });

  afterAll(async () => {
    await server?.stop();
    await target?.close();
    await redirector?.close();
  });

  test('a 301, 302, 303, 307 or 308 is a failed attempt and is never followed', async () => {
    const statuses = [301, 302, 303, 307, 308];
    const ids = new Map<number, string>();
    for (const status of statuses) {
      const created = await subscribe(server, `http://127.0.0.1:${redirector.port}/${status}/loopback`);
      expect(created.status).toBe(201);
      ids.set(status, created.id ?? '');
    }
    const metadata = await subscribe(server, `http://127.0.0.1:${redirector.port}/307/metadata`);
    await completeASession(server);
    expect(target.hits).toEqual([]);
    for (const [status, id] of ids) {
      const attempts = await attemptsOf(server, id);
      expect(attempts.length).toBeGreaterThan(0);
      expect(attempts[0]).toMatchObject({
        response_code: status,
        error: expect.stringMatching(/redirects are not followed/),
      });
    }
    expect((await attemptsOf(server, metadata.id ?? ''))[0]).toMatchObject({ response_code: 307 });
    expect(redirector.hits.length).toBeGreaterThanOrEqual(statuses.length + 1);
  });
});

describe('host names', () => {
  let receiver: Listener;

  beforeAll(async () => {
    receiver = await listen();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  const post = (resolve: (host: string) => Promise<Array<{ address: string; family: 4 | 6 }>>) =>
    postDelivery({
      url: `http://hooks.example.test:${receiver.port}/hooks`,
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      timeoutMs: 2_000,
      resolve,
    });

  test('a name that resolves to a private address, or to one among public ones, is not contacted', async () => {
    for (const answers of [
      ['127.0.0.1'],
      ['10.1.2.3'],
      ['93.184.216.34', '127.0.0.1'],
      ['::1'],
      ['::ffff:127.0.0.1'],
    ]) {
      const result = await post(async () =>
        answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
      expect(result, answers.join(', ')).toMatchObject({
        responseCode: null,
        error: expect.stringMatching(/^Not sent: The host hooks\.example\.test resolves to /),
      });
    }
    expect(receiver.hits).toEqual([]);
  });

  test('the name is resolved again at each attempt: a name that turns private later is refused then', async () => {
    let answer = '93.184.216.34';
    const seen: string[] = [];
    const resolve = async (host: string) => {
      seen.push(host);
      return [{ address: answer, family: 4 as const }];
    };
    answer = '127.0.0.1';
    expect(await post(resolve)).toMatchObject({ responseCode: null, error: expect.stringMatching(/loopback address/) });
    answer = '169.254.169.254';
    expect(await post(resolve)).toMatchObject({
      responseCode: null,
      error: expect.stringMatching(/link-local address/),
    });
    expect(seen).toEqual(['hooks.example.test', 'hooks.example.test']);
    expect(receiver.hits).toEqual([]);
  });
});
