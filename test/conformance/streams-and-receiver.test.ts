/**
 * The EventSource reading (a real `eventsource` client against a node:http stream on 127.0.0.1) and the
 * webhook receiver.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readEventStream } from '../../conformance/harness/event-stream.js';
import { ExchangeLog } from '../../conformance/harness/exchange.js';
import { WebhookReceiver } from '../../conformance/harness/receiver.js';

/** Five events with ids 1 to 5; a reconnect gets those after Last-Event-ID; retry 20 ms keeps it quick. */
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.headers.authorization !== 'Bearer sk_test_stream') {
      response.writeHead(401, { 'content-type': 'application/problem+json' }).end('{}');
      return;
    }
    const after = Number(request.headers['last-event-id'] ?? 0);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let id = after + 1; id <= 5; id++) {
      const event = id === 5 ? 'session.complete' : 'round.complete';
      response.write(`${id === after + 1 ? 'retry: 20\n' : ''}id: ${id}\nevent: ${event}\ndata: {"round":${id}}\n\n`);
    }
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
});

afterAll(() => {
  server.close();
});

describe('readEventStream', () => {
  const base = {
    eventNames: ['round.complete', 'session.complete'],
    terminal: ['session.complete'],
    timeoutMs: 5_000,
    check: 'test',
  };

  test('a cut connection is resumed by the client with Last-Event-ID, nothing lost or repeated', async () => {
    const log = new ExchangeLog();
    const reading = await readEventStream({
      ...base,
      url,
      authorization: 'Bearer sk_test_stream',
      log,
      cutAfterEvents: 2,
    });
    expect(reading.ended).toBe('terminal');
    expect(reading.events.map((event) => event.lastEventId)).toEqual(['1', '2', '3', '4', '5']);
    expect(reading.connections.map((connection) => connection.lastEventIdSent)).toEqual([undefined, '2']);
    expect(reading.connections[0]?.exchange.error).toMatch(/cut/);
    expect(log.all().length).toBe(2);
    expect(log.all()[0]?.request.headers['authorization']).toBe('Bearer sk_test_…ream');
  });

  test('a refused stream ends as failed, with the answer recorded', async () => {
    const reading = await readEventStream({ ...base, url, authorization: 'Bearer wrong', log: new ExchangeLog() });
    expect(reading.ended).toBe('failed');
    expect(reading.events).toEqual([]);
    expect(reading.connections[0]?.exchange.response?.status).toBe(401);
  });
});

describe('WebhookReceiver', () => {
  test('records each delivery byte for byte and answers as programmed', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const endpoint = receiver.endpoint((_, index) => (index === 0 ? 503 : 204));
      expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/[\w-]+$/);
      const send = (): Promise<number> =>
        fetch(endpoint.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-service-event': 'session.complete' },
          body: '{"event": "session.complete"}',
        }).then((response) => response.status);
      const arrived = endpoint.waitFor((deliveries) => deliveries.length === 2, 5_000);
      expect([await send(), await send()]).toEqual([503, 204]);
      expect(await arrived).toBe(true);
      expect(
        endpoint
          .deliveries()
          .map((delivery) => [delivery.answered, delivery.headers['x-service-event'], delivery.rawBody.toString()]),
      ).toEqual([
        [503, 'session.complete', '{"event": "session.complete"}'],
        [204, 'session.complete', '{"event": "session.complete"}'],
      ]);
      expect(await endpoint.waitFor((deliveries) => deliveries.length === 3, 50)).toBe(false);
      expect(
        await fetch(`${receiver.origin}/hooks/unknown`, { method: 'POST' }).then((response) => response.status),
      ).toBe(404);
    } finally {
      await receiver.close();
    }
  });

  test("a check's view of the receiver owns the endpoints it makes; every delivery is listed once, in order", async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const own = receiver.forCheck('webhooks.delivery').endpoint();
      const probe = receiver.forCheck('webhooks.delivery').endpoint(200, 'delivery probe');
      const plain = receiver.endpoint();
      for (const url of [own.url, probe.url, plain.url]) {
        await fetch(url, { method: 'POST', body: '{}' });
      }
      expect(receiver.all().map((delivery) => [delivery.seq, delivery.owner])).toEqual([
        [1, 'webhooks.delivery'],
        [2, 'delivery probe'],
        [3, undefined],
      ]);
    } finally {
      await receiver.close();
    }
  });
});
