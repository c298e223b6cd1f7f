/**
 * Slow clients are bounded (docs/limits.md, docs/reliability.md "Slow clients"): a body trickled a byte
 * at a time, or a connection that never sends its headers, is answered `408` and closed within the
 * stated time while other clients are served as usual; an event stream held open past those times is
 * not cut. The server runs with shorter timeouts than its defaults, so that the test is quick; the
 * defaults themselves are checked against the contract.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { valueAt } from '../../src/contract/pointer.js';
import { defaultClientLimits } from '../../src/server/http/client-limits.js';
import { subscriptionsPerWorkspace } from '../../src/server/http/handlers/webhooks.js';
import { lineupStart, startSession, startTestServer, type TestServer } from '../server/harness.js';

const contract = loadContract();
const limits = { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 };
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) {
    await stop();
  }
});

interface Exchange {
  socket: Socket;
  /** Everything received, and the time from connecting to the close, once closed. */
  closed: Promise<{ text: string; afterMs: number }>;
}

function open(server: TestServer, head: string): Exchange {
  const url = new URL(server.baseUrl);
  const socket = connect(Number(url.port), url.hostname);
  const startedAt = performance.now();
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  socket.write(head);
  const closed = new Promise<{ text: string; afterMs: number }>((resolve) => {
    socket.on('close', () => resolve({ text, afterMs: performance.now() - startedAt }));
    socket.on('error', () => undefined);
  });
  return { socket, closed };
}

test('the contract states the timeouts, the connection cap, the stream buffer and the subscription cap the server applies', () => {
  const stated = (name: string) => valueAt(contract, `#/x-limits/${name}/value`) as number;
  expect(defaultClientLimits).toEqual({
    headersTimeoutMs: stated('request_headers_timeout_seconds') * 1000,
    requestTimeoutMs: stated('request_timeout_seconds') * 1000,
    idleTimeoutMs: stated('idle_connection_timeout_seconds') * 1000,
    maxConnections: stated('connections_max'),
    stream: {
      maxBufferedBytes: stated('event_stream_buffer_max_bytes'),
      stallMs: stated('event_stream_stall_seconds') * 1000,
    },
  });
  expect(subscriptionsPerWorkspace).toBe(stated('webhook_subscriptions_per_workspace'));
});

test('a trickled body and a silent connection are answered 408 and closed in time; other clients are served', async () => {
  const server = await startTestServer({ clientLimits: limits });
  stops.push(() => server.stop());
  const sessionId = await startSession(server, lineupStart(1));
  // An event stream opened first, held past both timeouts: a long response is not cut.
  const stream = await server.request(`/v1/sessions/${sessionId}/events`);
  expect(stream.status).toBe(200);
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();

  const trickled = open(
    server,
    `POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.key}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
  );
  const timer = setInterval(() => trickled.socket.write(' '), 100);
  const silent = open(server, '');
  // Meanwhile, other clients are served as usual.
  const served: number[] = [];
  const others = (async () => {
    for (let n = 0; n < 20; n += 1) {
      served.push((await server.request('/v1/sessions?limit=1')).status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  const [body, idle] = await Promise.all([trickled.closed, silent.closed]);
  clearInterval(timer);
  await others;
  console.log(
    `slow clients: trickled body answered after ${body.afterMs.toFixed(0)} ms, silent connection after ${idle.afterMs.toFixed(0)} ms`,
  );
  for (const [answer, limitMs] of [
    [body, limits.requestTimeoutMs],
    [idle, limits.headersTimeoutMs],
  ] as const) {
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer.text).toContain('Content-Type: application/problem+json');
    expect(JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: 408,
      title: 'Request timeout',
    });
    // Node checks its timeouts every tenth of the shorter one; the margin is for a loaded machine.
    expect(answer.afterMs).toBeGreaterThanOrEqual(limitMs - 50);
    expect(answer.afterMs).toBeLessThan(limitMs + 3_000);
  }
  expect(served).toEqual(Array(20).fill(200));

  // The stream is still open: a cancel's events arrive on it.
  expect((await server.request(`/v1/sessions/${sessionId}/cancel`, { method: 'POST', json: {} })).status).toBe(200);
  let text = '';
  while (!text.includes('session.cancelled')) {
    const { value, done } = await reader.read();
    expect(done).toBe(false);
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
});
