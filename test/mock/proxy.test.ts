/**
 * The validation proxy in front of an implementation: one real Prism proxy for the file, forwarding to
 * a small upstream HTTP server on loopback that answers some requests correctly and others not.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { childPointer, resolve } from '../../src/contract/pointer.js';
import { findOperation } from '../../src/contract/operations.js';
import { freePort, type PrismProcess } from '../../src/mock/prism.js';
import { parseUpstream, startProxy } from '../../src/mock/proxy.js';
import { bearer } from './requests.js';

const contract = loadContract();
const health = findOperation(contract, 'getHealth')!;
const healthy = resolve<{ value: unknown }>(
  contract,
  childPointer(health.pointer, 'responses', '200', 'content', 'application/json', 'examples', 'healthy'),
).node.value;

interface Violation {
  location: string[];
  message: string;
}

const received: Array<{ method: string; url: string }> = [];
let upstream: Server;
let proxy: PrismProcess;

function answer(request: IncomingMessage): { status: number; body: unknown } {
  if (request.url === '/v1/health') {
    return { status: 200, body: healthy };
  }
  // A session without most of its required members: a response that breaks the contract.
  return { status: 200, body: { id: 'ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E', status: 'running' } };
}

beforeAll(async () => {
  upstream = createServer((request, response) => {
    received.push({ method: request.method ?? '', url: request.url ?? '' });
    request.resume().on('end', () => {
      const { status, body } = answer(request);
      response.writeHead(status, { 'Content-Type': 'application/json', 'X-Service-API-Version': '2026-10-01' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((ready) => upstream.listen(0, '127.0.0.1', ready));
  const { port } = upstream.address() as AddressInfo;
  proxy = await startProxy({ upstream: `http://127.0.0.1:${port}`, port: await freePort() });
}, 180_000);

afterAll(async () => {
  await proxy?.stop();
  await new Promise((closed) => upstream?.close(closed));
});

function violationsOf(response: Response): Violation[] {
  return JSON.parse(response.headers.get('sl-violations') ?? '[]') as Violation[];
}

test('conforming traffic passes through without violations', async () => {
  const response = await fetch(`${proxy.baseUrl}/v1/health`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual(healthy);
  expect(violationsOf(response)).toEqual([]);
});

test('a response that breaks the contract is passed on and its violations reported', async () => {
  const session = `${proxy.baseUrl}/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E`;
  const response = await fetch(session, { headers: { Authorization: bearer } });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ id: 'ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E', status: 'running' });
  const violations = violationsOf(response);
  expect(violations.some((violation) => violation.location.join('.').startsWith('response.body'))).toBe(true);
  expect(proxy.output()).toMatch(/Violation: response\.body/);
});

test('an invalid request is forwarded and its violations reported', async () => {
  const before = received.length;
  const response = await fetch(`${proxy.baseUrl}/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E`);
  expect(received.length).toBe(before + 1);
  expect(violationsOf(response).some((violation) => violation.location.join('.') === 'request')).toBe(true);
});

test('the upstream must be an absolute http(s) URL', () => {
  expect(parseUpstream('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
  expect(() => parseUpstream('127.0.0.1:8080')).toThrow(/absolute URL|http or https/);
  expect(() => parseUpstream('ftp://example.org')).toThrow(/http or https/);
});
