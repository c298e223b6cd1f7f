/**
 * The faults at the HTTP seams of the app: a request before routing (method, URL, headers), before its
 * handler (body, or an answer instead of the handler's), its response as it would leave (status, headers,
 * serialised body), and each block of an event stream. Requests to the control plane are never touched.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '../server/core/problems.js';
import type { Route } from '../server/http/routes.js';
import type { FaultSwitches } from './fault-switches.js';
import type { FaultRequest, FaultResponse, FaultState } from './faults/types.js';

/** The control plane's path, announced on the health probe (docs/conformance.md). */
export const controlPath = '/_test';
export const controlHeader = 'X-Boardkit-Test-Control';

const isControl = (url: string): boolean =>
  url === controlPath || url.startsWith(`${controlPath}/`) || url.startsWith(`${controlPath}?`);

/** Finds the operation of a method and path; a literal segment wins over a template (`/x/search` over `/x/{id}`). */
export function routeFinder(routes: readonly Route[]): (method: string, path: string) => Route | undefined {
  const patterns = routes
    .map((route) => ({
      route,
      pattern: new RegExp(`^${route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }))
    .sort((a, b) => a.route.path.split('{').length - b.route.path.split('{').length);
  return (method, path) =>
    patterns.find(({ route, pattern }) => route.method === method.toLowerCase() && pattern.test(path))?.route;
}

export interface HttpFaults {
  rewriteUrl(raw: IncomingMessage): string;
  register(app: FastifyInstance): void;
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
  eventStream(request: FastifyRequest, text: AsyncIterable<string>): AsyncIterable<string>;
}

function headersOf(reply: FastifyReply): Record<string, string> {
  return Object.fromEntries(
    Object.entries(reply.getHeaders()).flatMap(([name, value]) =>
      value === undefined ? [] : [[name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]],
    ),
  );
}

export function httpFaults(
  switches: FaultSwitches,
  state: FaultState,
  findRoute: ReturnType<typeof routeFinder>,
): HttpFaults {
  const views = new WeakMap<IncomingMessage, FaultRequest>();
  const answered = new WeakSet<IncomingMessage>();

  function viewOf(raw: IncomingMessage): FaultRequest {
    let view = views.get(raw);
    if (view === undefined) {
      const url = new URL(`http://reference.invalid${raw.url ?? '/'}`);
      const method = raw.method ?? 'GET';
      view = {
        method,
        url,
        headers: raw.headers as Record<string, string | undefined>,
        body: Buffer.alloc(0),
        route: findRoute(method, url.pathname),
      };
      views.set(raw, view);
    }
    return view;
  }

  /** Whether the faults may touch a request: not the control plane, and a path in origin form. */
  const inScope = (raw: IncomingMessage): boolean =>
    raw.url?.startsWith('/') === true && !isControl(raw.url) && URL.canParse(`http://reference.invalid${raw.url}`);

  /** The response as the faults leave it: the payload to send (the last `onSend` hook). */
  function faultedPayload(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    if (!inScope(request.raw)) {
      return payload;
    }
    if (request.method === 'GET' && request.url.split('?')[0] === '/v1/health') {
      reply.header(controlHeader, controlPath);
    }
    const faults = switches.activeAt('response');
    if (faults.length === 0 || answered.has(request.raw)) {
      return payload;
    }
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    const headers = headersOf(reply);
    const response: FaultResponse = { status: reply.statusCode, headers: { ...headers }, text };
    const view = viewOf(request.raw);
    faults.forEach((fault) => fault.response(view, response, state));
    reply.code(response.status);
    for (const name of Object.keys(headers).filter((each) => !(each in response.headers))) {
      reply.removeHeader(name);
    }
    for (const [name, value] of Object.entries(response.headers).filter(([each, kept]) => headers[each] !== kept)) {
      reply.header(name, value);
    }
    const streamed =
      payload !== null && payload !== undefined && typeof payload !== 'string' && !Buffer.isBuffer(payload);
    return streamed || response.text === text ? payload : response.text;
  }

  return {
    rewriteUrl(raw) {
      const url = raw.url ?? '/';
      const faults = switches.activeAt('request');
      if (faults.length === 0 || !inScope(raw)) {
        return url;
      }
      const view = viewOf(raw);
      const before = `${view.method} ${view.url.href}`;
      faults.forEach((fault) => fault.request(view, state));
      if (`${view.method} ${view.url.href}` === before) {
        return url;
      }
      view.route = findRoute(view.method, view.url.pathname);
      raw.method = view.method;
      return `${view.url.pathname}${view.url.search}`;
    },

    register(app) {
      app.addHook('preHandler', async (request, reply) => {
        const faults = switches.activeAt('answer');
        if (faults.length === 0 || !inScope(request.raw)) {
          return;
        }
        const view = viewOf(request.raw);
        view.body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        for (const fault of faults) {
          const answer = fault.answer(view, state);
          if (answer instanceof ProblemError) {
            answered.add(request.raw);
            throw answer;
          }
          if (answer !== undefined) {
            answered.add(request.raw);
            return reply.code(answer.status).headers(answer.headers).send(answer.text);
          }
        }
        if (view.body !== request.body && view.body.length > 0) {
          request.body = view.body;
        }
        return;
      });
    },

    onSend(request, reply, payload) {
      return Promise.resolve(faultedPayload(request, reply, payload));
    },

    async *eventStream(request, text) {
      const view = viewOf(request.raw);
      let index = 0;
      for await (const block of text) {
        let changed = block;
        for (const fault of switches.activeAt('event')) {
          changed = changed === '' ? '' : fault.event(view, changed, index, state);
        }
        index += 1;
        if (changed !== '') {
          yield changed;
        }
      }
    },
  };
}
