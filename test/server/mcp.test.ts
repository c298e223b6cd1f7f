/**
 * Consult turns over MCP (seed "What the service does" 6): the SDK's own Streamable HTTP client against
 * the reference server on a free port. The tool is listed with the contract's schemas, each turn returns
 * the expert's reply and any composed document, is billed per turn in the shared ledger, and every
 * refusal is the problem the REST API would answer.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { consultTool } from '../../src/server/domain/mcp/consult-tool.js';
import { getJson, lineupStart, startSession, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let poor: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  [server, poor] = await Promise.all([startTestServer(), startTestServer({ startingCredits: 5 })]);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all([server.stop(), poor.stop()]);
});

async function connect(target: TestServer, key: string | null = target.key): Promise<Client> {
  const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
  const transport = new StreamableHTTPClientTransport(new URL(`${target.baseUrl}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'boardkit-tests', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function consultSession(target: TestServer, key = target.key): Promise<string> {
  const response = await target.request('/v1/sessions', {
    method: 'POST',
    key,
    json: {
      question: 'Should our EU subsidiary be in Ireland or the Netherlands?',
      session_type: 'consult',
      synth_id: 'tax_advisor',
    },
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { session_id: string }).session_id;
}

function turn(client: Client, args: Record<string, unknown>): Promise<CallToolResult> {
  return client.callTool({ name: 'service.consult.message', arguments: args }) as Promise<CallToolResult>;
}

/** The problem a tool error carries as its text. */
function problemOf(result: CallToolResult): Record<string, unknown> {
  expect(result.isError).toBe(true);
  const [first] = result.content;
  return JSON.parse(first?.type === 'text' ? first.text : '{}') as Record<string, unknown>;
}

function expectOutput(value: unknown): void {
  const check = server.server.services.validator.validate('#/components/schemas/ConsultTurnOutput', value);
  expect(check.errors).toEqual([]);
}

describe('the MCP endpoint', () => {
  test('lists service.consult.message with the contract description and self-contained schemas', async () => {
    const client = await connect(server);
    const { tools } = await client.listTools();
    const expected = consultTool(server.server.services.document);
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({ name: 'service.consult.message', description: expected.description });
    expect(tools[0]?.inputSchema).toEqual(expected.inputSchema);
    expect(tools[0]?.outputSchema).toEqual(expected.outputSchema);
    expect(JSON.stringify(tools[0])).not.toContain('#/components/');
    expect(tools[0]?.inputSchema.required).toEqual(['session_id', 'message']);
  });

  test('a request without a valid key is a 401 problem, and the client cannot connect', async () => {
    await expect(connect(server, null)).rejects.toThrow(/401/);
    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await response.json()).toMatchObject({ status: 401, type: expect.stringMatching(/\/unauthorized$/) });
  });

  test('answers carry the version and rate-limit headers of the API; the messages bucket counts them', async () => {
    const response = await server.request('/mcp', {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream' },
      json: { jsonrpc: '2.0', id: 7, method: 'tools/list' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-service-api-version')).toBe(server.server.services.versions.current);
    expect(response.headers.get('ratelimit')).toMatch(/^"messages";r=\d+;t=\d+$/);
    expect(await response.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { tools: [{ name: 'service.consult.message' }] },
    });
  });

  test('only POST is offered; a body that is not JSON is a 400 problem', async () => {
    const get = await server.request('/mcp');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    await get.arrayBuffer();
    const garbled = await server.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    });
    expect(garbled.status).toBe(400);
    expect(await garbled.json()).toMatchObject({ type: expect.stringMatching(/\/invalid-request$/) });
    const deep = await server.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '['.repeat(100_000),
    });
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({
      type: expect.stringMatching(/\/invalid-request$/),
      detail: expect.stringMatching(/nests/),
    });
  });

  test("a request without a usable Host header is a 400 problem, not the transport's bare 400", async () => {
    const { port } = new URL(server.baseUrl);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    // HTTP/1.0 lets a request leave Host out; fetch always sends one, so the request is written by hand.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = createConnection({ host: '127.0.0.1', port: Number(port) }, () => {
        socket.end(
          `POST /mcp HTTP/1.0\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\n` +
            `Accept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      });
      const chunks: Buffer[] = [];
      socket
        .on('data', (chunk: Buffer) => chunks.push(chunk))
        .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
        .on('error', reject);
    });
    const [head = '', payload = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toContain('content-type: application/problem+json');
    expect(JSON.parse(payload)).toMatchObject({
      status: 400,
      type: expect.stringMatching(/\/invalid-request$/),
      detail: expect.stringMatching(/Host/),
    });
  });
});

describe('consult turns', () => {
  test('each turn returns the reply and any document, begins the session, and is billed per turn', async () => {
    const client = await connect(server);
    const id = await consultSession(server);
    expect(await getJson(server, `/v1/sessions/${id}`)).toMatchObject({ status: 'created', v4_phase: 'queued' });
    const before = (await getJson<{ balance_credits: number }>(server, '/credits')).balance_credits;

    const first = await turn(client, {
      session_id: id,
      message: 'We expect EUR 2.4M of EU revenue next year. Where should we incorporate?',
    });
    expect(first.isError).toBeFalsy();
    expectOutput(first.structuredContent);
    expect(first.structuredContent).toMatchObject({ session_id: id, turn: 1, document: null, credits_charged: 5 });
    expect(JSON.parse((first.content[0] as { text: string }).text)).toEqual(first.structuredContent);

    const second = await turn(client, { session_id: id, message: 'Draft the memo for our accountants.' });
    expectOutput(second.structuredContent);
    expect(second.structuredContent).toMatchObject({
      turn: 2,
      credits_charged: 5,
      document: { format: 'markdown', title: expect.stringMatching(/^Memo: /) },
    });

    const session = await getJson(server, `/v1/sessions/${id}`);
    expect(session).toMatchObject({ status: 'running', credits_charged: 10, estimated_cost_credits: 10 });
    const credits = await getJson<{ balance_credits: number; recent_usage: Array<Record<string, unknown>> }>(
      server,
      '/credits',
    );
    expect(credits.balance_credits).toBe(before - 10);
    expect(credits.recent_usage.filter((entry) => entry['session_id'] === id)).toEqual([
      expect.objectContaining({ kind: 'consult_turn', source: 'mcp', credits: -5 }),
      expect.objectContaining({ kind: 'consult_turn', source: 'mcp', credits: -5 }),
    ]);
    const stream = await server.request(`/v1/sessions/${id}/events?finite=true`);
    const events = [...(await stream.text()).matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(events).toEqual(['synth.message', 'synth.message']);

    // Billed per turn: a cancellation has nothing left to refund.
    const cancelled = await server.request(`/v1/sessions/${id}/cancel`, { method: 'POST' });
    expect(await cancelled.json()).toMatchObject({ status: 'cancelled', credits_charged: 10, credits_refunded: 0 });
    expect(problemOf(await turn(client, { session_id: id, message: 'One more question.' }))).toMatchObject({
      status: 409,
      type: expect.stringMatching(/\/conflict$/),
    });
  });

  test('arguments that break ConsultTurnInput are an invalid-request tool error pointing into the arguments', async () => {
    const client = await connect(server);
    const problem = problemOf(await turn(client, { session_id: 'not-a-session', message: '', extra: true }));
    expect(problem).toMatchObject({ status: 400, type: expect.stringMatching(/\/invalid-request$/), instance: '/mcp' });
    const pointers = (problem['errors'] as Array<{ pointer: string }>).map((error) => error.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining(['#/arguments/session_id', '#/arguments/message', '#/arguments/extra']),
    );
    const missing = problemOf(await turn(client, {}));
    expect((missing['errors'] as Array<{ pointer: string }>).map((error) => error.pointer)).toEqual([
      '#/arguments/session_id',
      '#/arguments/message',
    ]);
  });

  test("another workspace's session is not found; a boardroom session takes no consult turns", async () => {
    const client = await connect(server);
    const theirs = await consultSession(server, server.otherKey);
    expect(problemOf(await turn(client, { session_id: theirs, message: 'Hello?' }))).toMatchObject({ status: 404 });
    const boardroom = await startSession(server, lineupStart(1));
    expect(problemOf(await turn(client, { session_id: boardroom, message: 'Hello?' }))).toMatchObject({ status: 409 });
  });

  test('a turn the balance does not cover is an insufficient-credits tool error and charges nothing', async () => {
    const client = await connect(poor);
    const id = await consultSession(poor);
    expect((await turn(client, { session_id: id, message: 'Ireland or the Netherlands?' })).isError).toBeFalsy();
    const problem = problemOf(await turn(client, { session_id: id, message: 'And the transfer pricing?' }));
    expect(problem).toMatchObject({
      status: 402,
      type: expect.stringMatching(/\/insufficient-credits$/),
      session_estimate_credits: 5,
      balance_credits: 0,
      topup_url: expect.stringMatching(/^https:\/\//),
    });
    expect(await getJson(poor, `/v1/sessions/${id}`)).toMatchObject({ credits_charged: 5 });
    expect((await getJson<{ balance_credits: number }>(poor, '/credits')).balance_credits).toBe(0);
  });

  test('an unknown tool is a protocol error', async () => {
    const client = await connect(server);
    await expect(client.callTool({ name: 'service.consult.shout', arguments: {} })).rejects.toThrow(
      /service\.consult\.message/,
    );
  });
});
