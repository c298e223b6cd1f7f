/**
 * The mutant proxy: in front of an implementation it passes every request through, and each active fault
 * changes one behaviour (a request, a response, an event of a stream, a webhook delivery on its way to the
 * receiver), turning a good implementation into a known-bad one (the anchors' "known-bad mutant
 * fixtures"). It serves the test-only control plane of docs/conformance.md: the fault switches, and the
 * time control of the clock it is given. The suite's self-verification runs each fault and proves the
 * suite fails the requirements the fault names.
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AdjustableClock } from './adjustable-clock.js';
import type { Fault, ProxiedRequest, ProxyState, RelayedDelivery, BufferedResponse } from './types.js';

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host']);

function plainHeaders(headers: IncomingMessage['headers'] | Headers): Record<string, string> {
  const record: Record<string, string> = {};
  const entries: Array<[string, string | string[] | undefined]> = [];
  if (headers instanceof Headers) {
    headers.forEach((value, name) => entries.push([name, value]));
  } else {
    entries.push(...Object.entries(headers));
  }
  for (const [name, value] of entries) {
    if (value !== undefined && !hopByHop.has(name.toLowerCase())) {
      record[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    }
  }
  return record;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(response: ServerResponse, answer: BufferedResponse): void {
  const body = Buffer.from(answer.text);
  response.writeHead(answer.status, { ...answer.headers, 'content-length': String(body.length) });
  response.end(body);
}

export interface MutantProxy {
  baseUrl: string;
  setFaults(names: readonly string[]): void;
  close(): Promise<void>;
}

export interface MutantProxyOptions {
  upstream: string;
  keys: { a: string; b: string };
  clock: AdjustableClock;
  faults: readonly Fault[];
}

export async function startMutantProxy(options: MutantProxyOptions): Promise<MutantProxy> {
  const catalogue = new Map(options.faults.map((fault) => [fault.name, fault]));
  let active: Fault[] = [];
  const state: ProxyState = { keys: options.keys, clock: options.clock, memory: new Map(), relays: new Map(), origin: '' };
  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(502, { 'content-type': 'text/plain' }).end(`mutant proxy: ${String(error)}`);
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', state.origin);
    const body = await bodyOf(request);
    if (url.pathname.startsWith('/_test/')) {
      return control(request.method ?? 'GET', url.pathname, body, response);
    }
    if (url.pathname.startsWith('/_relay/')) {
      return relay(url.pathname.slice('/_relay/'.length), plainHeaders(request.headers), body, response);
    }
    const proxied: ProxiedRequest = { method: request.method ?? 'GET', url, headers: plainHeaders(request.headers), body };
    for (const fault of active) {
      const answer = await fault.request?.(proxied, state);
      if (answer !== undefined) {
        return send(response, answer);
      }
    }
    const relayId = divertSubscription(proxied);
    const upstream = await fetch(new URL(proxied.url.pathname + proxied.url.search, options.upstream), {
      method: proxied.method,
      headers: proxied.headers,
      ...(proxied.body.length === 0 || proxied.method === 'GET' ? {} : { body: proxied.body.toString('utf8') }),
    });
    const headers = plainHeaders(upstream.headers);
    if (headers['content-type']?.startsWith('text/event-stream') === true && upstream.body !== null) {
      return stream(proxied, upstream.status, headers, upstream.body, response);
    }
    const answer: BufferedResponse = { status: upstream.status, headers, text: await upstream.text() };
    if (relayId !== undefined) {
      const secret = (JSON.parse(answer.text || '{}') as { signing_secret?: string }).signing_secret;
      const entry = state.relays.get(relayId);
      if (entry !== undefined && secret !== undefined) {
        entry.secret = secret;
      }
    }
    if (url.pathname === '/v1/health') {
      answer.headers['x-boardkit-test-control'] = '/_test';
    }
    for (const fault of active) {
      fault.response?.(proxied, answer, state);
    }
    send(response, answer);
  }

  /** Subscriptions are pointed at the relay, so faults can reach the deliveries. */
  function divertSubscription(proxied: ProxiedRequest): string | undefined {
    if (proxied.method !== 'POST' || !/^\/(v1\/)?webhooks$/.test(proxied.url.pathname)) {
      return undefined;
    }
    try {
      const json = JSON.parse(proxied.body.toString('utf8')) as { url?: unknown };
      if (typeof json.url !== 'string') {
        return undefined;
      }
      const id = String(state.relays.size + 1);
      state.relays.set(id, { target: json.url, secret: undefined, seen: new Map() });
      json.url = `${state.origin}/_relay/${id}`;
      proxied.body = Buffer.from(JSON.stringify(json));
      return id;
    } catch {
      return undefined;
    }
  }

  async function stream(proxied: ProxiedRequest, status: number, headers: Record<string, string>, body: ReadableStream<Uint8Array>, response: ServerResponse): Promise<void> {
    const answer: BufferedResponse = { status, headers, text: '' };
    for (const fault of active) {
      fault.response?.(proxied, answer, state);
    }
    response.writeHead(answer.status, answer.headers);
    const decoder = new TextDecoder();
    let buffer = '';
    let index = 0;
    const reader = body.getReader();
    response.on('close', () => void reader.cancel().catch(() => undefined));
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        let block: string | undefined = buffer.slice(0, end + 2);
        buffer = buffer.slice(end + 2);
        for (const fault of active) {
          block = block === undefined ? undefined : fault.event?.(proxied, block, index, state) ?? block;
          if (block === '') {
            block = undefined;
          }
        }
        index++;
        if (block !== undefined) {
          response.write(block);
        }
      }
    }
    response.end(buffer);
  }

  async function relay(id: string, headers: Record<string, string>, body: Buffer, response: ServerResponse): Promise<void> {
    const entry = state.relays.get(id);
    if (entry === undefined) {
      response.writeHead(404).end();
      return;
    }
    const delivery: RelayedDelivery = { headers, body, forward: true, answerServer: undefined, extra: [] };
    for (const fault of active) {
      fault.delivery?.(delivery, entry, state);
    }
    let status = 200;
    for (const copy of [delivery, ...delivery.extra]) {
      if (copy.forward) {
        const answer = await fetch(entry.target, { method: 'POST', headers: copy.headers, body: copy.body.toString('utf8') });
        await answer.arrayBuffer();
        if (copy === delivery) {
          status = answer.status;
        }
      }
    }
    response.writeHead(delivery.answerServer ?? status).end();
  }

  function control(method: string, path: string, body: Buffer, response: ServerResponse): void {
    const json = (): Record<string, unknown> => (body.length === 0 ? {} : (JSON.parse(body.toString('utf8')) as Record<string, unknown>));
    const reply = (value: unknown, status = 200): void => send(response, { status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(value) });
    if (path === '/_test/clock') {
      if (method === 'PUT') {
        const { time_scale: scale, advance_ms: advance } = json();
        if (advance !== undefined) {
          options.clock.advance(Number(advance));
        }
        if (scale !== undefined) {
          options.clock.setScale(Number(scale));
        }
      }
      return reply({ now: new Date(options.clock.now()).toISOString(), time_scale: options.clock.scale() });
    }
    if (path === '/_test/faults') {
      if (method === 'PUT') {
        const names = (json()['active'] as unknown[] | undefined ?? []).map(String);
        const unknown = names.filter((name) => !catalogue.has(name));
        if (unknown.length > 0) {
          return reply({ error: `unknown faults: ${unknown.join(', ')}` }, 400);
        }
        active = names.map((name) => catalogue.get(name)!);
      }
      return reply({ available: [...catalogue.keys()], active: active.map((fault) => fault.name) });
    }
    reply({ error: 'not found' }, 404);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: state.origin,
    setFaults(names) {
      active = names.map((name) => {
        const fault = catalogue.get(name);
        if (fault === undefined) {
          throw new Error(`unknown fault ${name}`);
        }
        return fault;
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
