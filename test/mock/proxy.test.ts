/**
 * The validation proxy in front of an implementation: one proxy for the file, in process, relaying to a
 * small upstream HTTP server on loopback that answers some requests correctly and others not, and sends
 * an event stream whose second event breaks the contract only once the client has received the first.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { childPointer, resolve } from '../../src/contract/pointer.js';
import { findOperation } from '../../src/contract/operations.js';
import { formatEvent, parseEventStream } from '../../src/contract/sse.js';
import { parseUpstream, startProxy, type RunningProxy } from '../../src/mock/proxy.js';
import { parseFailOn } from '../../src/mock/proxy/findings.js';
import type { ProxyReport } from '../../src/mock/proxy/report.js';
import { bearer } from './requests.js';

const contract = loadContract();
const health = findOperation(contract, 'getHealth')!;
const healthy = resolve<{ value: unknown }>(
  contract,
  childPointer(health.pointer, 'responses', '200', 'content', 'application/json', 'examples', 'healthy'),
).node.value;
const sessionId = 'ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E';
const versionHeader = { 'X-Service-API-Version': '2026-10-01' };

interface Violation {
  location: string[];
  message: string;
}

const received: Array<{ method: string; url: string }> = [];
let upstream: Server;
let proxy: RunningProxy;
let releaseStream: () => void = () => undefined;
const streamReleased = new Promise<void>((release) => (releaseStream = release));

async function stream(response: ServerResponse): Promise<void> {
  response.writeHead(200, { 'Content-Type': 'text/event-stream', ...versionHeader });
  const message = { synth: 'cfo', round: 1, content: 'Payback has to be shown in months.' };
  response.write(formatEvent({ event: 'synth.message', id: '1', retry: 3000, data: JSON.stringify(message) }));
  // The second event is sent only once the client has seen the first through the proxy.
  await streamReleased;
  const broken = { ...message, round: 'two' };
  response.end(formatEvent({ event: 'synth.message', id: '2', data: JSON.stringify(broken) }));
}

function answer(request: IncomingMessage, response: ServerResponse): void {
  if (request.url?.endsWith('/events') === true) {
    void stream(response);
    return;
  }
  // A session without most of its required members: a response that breaks the contract.
  const [status, body] = request.url === '/v1/health' ? [200, healthy] : [200, { id: sessionId, status: 'running' }];
  response.writeHead(status, { 'Content-Type': 'application/json', ...versionHeader });
  response.end(JSON.stringify(body));
}

beforeAll(async () => {
  upstream = createServer((request, response) => {
    received.push({ method: request.method ?? '', url: request.url ?? '' });
    request.resume().on('end', () => answer(request, response));
  });
  await new Promise<void>((ready) => upstream.listen(0, '127.0.0.1', ready));
  proxy = await startProxy({ upstream: upstreamUrl(), port: 0, output: 'pipe' });
}, 120_000);

afterAll(async () => {
  releaseStream();
  await proxy?.stop();
  await new Promise((closed) => upstream?.close(closed));
});

function upstreamUrl(): string {
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}

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
  const response = await fetch(`${proxy.baseUrl}/v1/sessions/${sessionId}`, { headers: { Authorization: bearer } });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ id: sessionId, status: 'running' });
  const violations = violationsOf(response);
  expect(violations.some((violation) => violation.location.join('.').startsWith('response.body'))).toBe(true);
  expect(proxy.output()).toMatch(/Violation: response GET \/v1\/sessions\/ses_\w+ → 200: #\/body /);
});

test('an invalid request is forwarded and its violations reported', async () => {
  const before = received.length;
  const response = await fetch(`${proxy.baseUrl}/v1/sessions?limit=0`, { headers: { Authorization: bearer } });
  expect(received.length).toBe(before + 1);
  expect(violationsOf(response)).toContainEqual(expect.objectContaining({ location: ['request', 'query', 'limit'] }));
});

test('event-stream frames reach the client as they come, and a broken one is reported', async () => {
  const response = await fetch(`${proxy.baseUrl}/v1/sessions/${sessionId}/events`, {
    headers: { Authorization: bearer },
  });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  // The upstream holds the second event back until the first has arrived: a buffering proxy never ends this.
  while (parseEventStream(text).events.length < 1) {
    const { value, done } = await reader.read();
    expect(done).toBe(false);
    text += value;
  }
  expect(proxy.output()).not.toMatch(/Violation: stream/);
  releaseStream();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    text += chunk.value;
  }
  expect(parseEventStream(text).events.map((event) => event.id)).toEqual(['1', '2']);
  expect(proxy.output()).toMatch(
    /Violation: stream GET \/v1\/sessions\/ses_\w+\/events → 200: #\/events\/1\/data\/round /,
  );
});

test("a browser's CORS preflight is relayed unchecked", async () => {
  const before = received.length;
  const response = await fetch(`${proxy.baseUrl}/v1/sessions`, {
    method: 'OPTIONS',
    headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'POST' },
  });
  await response.arrayBuffer();
  expect(received.length).toBe(before + 1);
  expect(response.headers.get('sl-violations')).toBeNull();
});

test('the report lists each violation with its operation, status, pointer and evidence, and the coverage', async () => {
  const report: ProxyReport = await proxy.stop('signal');
  expect(report).toMatchObject({ verdict: 'fail', exitCode: 1, stoppedBy: 'signal' });
  expect(report.summary.exchanges).toBe(received.filter((request) => request.method !== 'OPTIONS').length);
  const body = report.violations.find((violation) => violation.kind === 'response');
  expect(body).toMatchObject({ operation: 'getSession', status: 200, counted: true });
  expect(body?.pointer).toMatch(/^#\/body/);
  expect(body?.evidence.responseBody).toContain(sessionId);
  expect(body?.evidence.requestHeaders['authorization']).not.toBe(bearer);
  const event = report.violations.find((violation) => violation.kind === 'stream');
  expect(event).toMatchObject({ operation: 'streamSessionEvents', pointer: '#/events/1/data/round' });
  const operations = new Map(report.coverage.operations.map((operation) => [operation.operationId, operation]));
  expect(operations.get('getHealth')).toMatchObject({ calls: 1, statuses: { '200': 1 } });
  expect(operations.get('listSessions')?.calls).toBe(1);
  expect(operations.get('deleteSession')?.calls).toBe(0);
  expect(report.coverage.streamEvents).toContainEqual({ name: 'synth.message', seen: 2, documented: true });
});

test('with errors, an invalid request is refused unforwarded and an invalid answer becomes a 500 problem', async () => {
  const strict = await startProxy({
    upstream: upstreamUrl(),
    port: 0,
    errors: true,
  });
  try {
    const before = received.length;
    const refused = await fetch(`${strict.baseUrl}/v1/sessions?limit=0`, { headers: { Authorization: bearer } });
    expect(received.length).toBe(before);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      type: expect.stringMatching(/\/invalid-request$/),
      errors: [expect.objectContaining({ pointer: '#/query/limit' })],
    });
    const replaced = await fetch(`${strict.baseUrl}/v1/sessions/${sessionId}`, { headers: { Authorization: bearer } });
    expect(replaced.status).toBe(500);
    expect(await replaced.json()).toMatchObject({
      detail: expect.stringMatching(/does not match the contract: #\/body/),
    });
  } finally {
    await strict.stop();
  }
});

test('with --fail-on none the violations are reported but pass', async () => {
  const lenient = await startProxy({
    upstream: upstreamUrl(),
    port: 0,
    failOn: [],
  });
  await (
    await fetch(`${lenient.baseUrl}/v1/sessions/${sessionId}`, { headers: { Authorization: bearer } })
  ).arrayBuffer();
  const report = await lenient.stop();
  expect(report).toMatchObject({ verdict: 'pass', exitCode: 0, failOn: [] });
  expect(report.violations.length).toBeGreaterThan(0);
  expect(report.violations.every((violation) => !violation.counted)).toBe(true);
});

test('--fail-on chooses the kinds that count', () => {
  expect(parseFailOn('all')).toEqual(['request', 'response', 'stream']);
  expect(parseFailOn('stream, response')).toEqual(['response', 'stream']);
  expect(parseFailOn('none')).toEqual([]);
  expect(() => parseFailOn('responses')).toThrow(/--fail-on takes request, response, stream/);
  expect(() => parseFailOn('')).toThrow(/--fail-on/);
});

test('the upstream must be an absolute http(s) URL', () => {
  expect(parseUpstream('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
  expect(() => parseUpstream('127.0.0.1:8080')).toThrow(/absolute URL|http or https/);
  expect(() => parseUpstream('ftp://example.org')).toThrow(/http or https/);
});
