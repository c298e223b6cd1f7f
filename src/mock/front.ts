/**
 * The mock's front door: the one HTTP server of the mock. It answers what no operation of the contract
 * should have to, from the route table (`routes.ts`): an unknown path (`404 not-found`), a known path
 * with another method (`405 method-not-allowed` with `Allow`), a body over the limit
 * (`413 payload-too-large`, refused from `Content-Length` before it is read) and a JSON body that does
 * not parse (`400 invalid-request`), each with the contract's problem (seed "Errors"). A routed request
 * is handed to Prism in the same process (`engine.ts`) with the one operation it is for, and Prism's
 * refusals are rewritten to describe the request (`refusals.ts`) unless the client picked the response.
 * CORS is answered as `prism mock` answers it, for browsers calling the mock from another origin.
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { problemHead } from '../contract/problem-types.js';
import type { EngineAnswer, EngineRequest } from './engine.js';
import {
  invalidRequest,
  malformedJson,
  malformedPath,
  methodNotAllowed,
  notFound,
  payloadTooLarge,
  problemBody,
  refusalSlugs,
  unauthorized,
  unsupportedMediaType,
  type Refusal,
} from './refusals.js';
import { jsonMedia, queryOf, readBody } from './request.js';
import type { MockRuntime } from './runtime.js';

export interface FrontOptions {
  host: string;
  port: number;
  /**
   * The runtime answering now; read once per request, so a reload never splits one. A promise while the
   * first one compiles: a request that arrives then waits for it.
   */
  runtime: () => MockRuntime | Promise<MockRuntime>;
}

export interface RunningFront {
  server: Server;
  /** The port bound: the one asked for, or the one the system picked for port 0. */
  port: number;
  close(): Promise<void>;
}

/** Prism keeps `sl-violations` under common header size limits the same way. */
const violationsHeaderMax = 8 * 1024 - 100;

type Headers = Record<string, string | number | string[]>;

function send(response: ServerResponse, status: number, headers: Headers, payload: string): void {
  response.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(payload) });
  response.end(payload);
}

function refuse(
  response: ServerResponse,
  runtime: MockRuntime,
  refusal: Refusal,
  instance: string,
  extra: Headers = {},
): void {
  const head = problemHead(runtime.catalogue, refusal.slug);
  const headers = { ...runtime.problemHeaders, ...extra, 'content-type': 'application/problem+json' };
  send(response, head.status, headers, JSON.stringify(problemBody(head, refusal, instance)));
}

/** CORS as Prism's server does it: every response allows the caller's origin. */
function allowOrigin(incoming: IncomingMessage, response: ServerResponse): void {
  const headers = incoming.headers;
  response.setHeader('access-control-allow-origin', headers.origin ?? '*');
  response.setHeader('access-control-allow-headers', headers['access-control-request-headers'] ?? '*');
  response.setHeader('access-control-allow-credentials', 'true');
  response.setHeader('access-control-expose-headers', String(headers['access-control-expose-headers'] ?? '*'));
}

/** Prism's own problem types that are refusals of the request, and the contract's status for each. */
const prismOwnRefusals: Record<string, number> = {
  UNPROCESSABLE_ENTITY: 400,
  UNAUTHORIZED: 401,
  INVALID_CONTENT_TYPE: 415,
};

/**
 * An authentication scheme's name is case-insensitive (RFC 9110 §11.1), but Prism compares `Bearer`
 * exactly: the front door spells it as Prism expects, so `bearer <key>` is accepted as the API accepts it.
 */
function withBearerScheme(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  const authorization = headers.authorization;
  return authorization === undefined || !/^bearer\s/i.test(authorization) || authorization.startsWith('Bearer')
    ? headers
    : { ...headers, authorization: `Bearer${authorization.slice('bearer'.length)}` };
}

function headerOf(headers: Headers, name: string): string | undefined {
  const found = Object.keys(headers).find((key) => key.toLowerCase() === name);
  return found === undefined ? undefined : String(headers[found]);
}

/** The refusal a Prism answer stands for, or `undefined` when it is not one or the client picked it. */
function refusalOf(
  answer: EngineAnswer,
  request: EngineRequest,
  runtime: MockRuntime,
  key: string,
): Refusal | undefined {
  const chosen = answer.chosen;
  if (chosen.exampleKey !== undefined || chosen.code === answer.status) {
    return undefined;
  }
  // Prism's own problems where the operation documents no such response (422 for an invalid request).
  const own = answer.prismError?.split('#')[1];
  const status = own === undefined ? answer.status : prismOwnRefusals[own];
  // Prism's 422 without violations of the request is about the `Prefer` header itself: its own words stand.
  if (own === 'UNPROCESSABLE_ENTITY' && answer.input.length === 0) {
    return undefined;
  }
  if (
    status === undefined ||
    !(headerOf(answer.headers, 'content-type') ?? '').startsWith('application/problem+json')
  ) {
    return undefined;
  }
  switch (refusalSlugs[status as keyof typeof refusalSlugs]) {
    case 'invalid-request':
      return invalidRequest(answer.input);
    case 'unauthorized':
      return unauthorized(request.headers['authorization'] as string | undefined);
    case 'unsupported-media-type':
      return unsupportedMediaType(
        request.headers['content-type'] as string | undefined,
        runtime.requestMedia.get(key) ?? [],
      );
    case 'not-found':
      return notFound(request.path);
    default:
      return undefined;
  }
}

function serialize(body: unknown, contentType: string | undefined): string {
  if (body === undefined || body === null) {
    return '';
  }
  if (typeof body === 'string' && !(contentType !== undefined && jsonMedia.test(contentType))) {
    return body;
  }
  return JSON.stringify(body);
}

function reply(
  response: ServerResponse,
  runtime: MockRuntime,
  request: EngineRequest,
  key: string,
  answer: EngineAnswer,
): void {
  const violations = [...answer.input, ...answer.output];
  const headers: Headers = Object.fromEntries(
    Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  if (violations.length > 0) {
    const text = JSON.stringify(violations);
    headers['sl-violations'] =
      text.length > violationsHeaderMax ? `Too many violations! ${text.slice(0, violationsHeaderMax)}` : text;
  }
  const refusal = refusalOf(answer, request, runtime, key);
  if (refusal !== undefined) {
    refuse(response, runtime, refusal, request.path, headers);
    return;
  }
  send(response, answer.status, headers, serialize(answer.body, headerOf(headers, 'content-type')));
}

/** The path and query of a request target, also in absolute form (RFC 9112 §3.2.2). */
function originForm(target: string): string {
  if (target.startsWith('/')) {
    return target;
  }
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return target;
  }
}

/** Whether the path's percent-encoding is well formed (RFC 3986 §2.1), so its parameters can be read. */
function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

async function handle(runtime: MockRuntime, incoming: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = originForm(incoming.url ?? '/');
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const method = (incoming.method ?? 'GET').toUpperCase();
  allowOrigin(incoming, response);
  if (
    method === 'OPTIONS' &&
    incoming.headers.origin !== undefined &&
    incoming.headers['access-control-request-method'] !== undefined
  ) {
    response.setHeader('access-control-allow-methods', incoming.headers['access-control-request-method']);
    response.setHeader('vary', 'origin');
    send(response, 204, {}, '');
    return;
  }
  const route = runtime.routes.route(method, path);
  if (route.kind === 'operation' && !decodes(path)) {
    incoming.resume();
    refuse(response, runtime, malformedPath(), path);
    return;
  }
  if (route.kind !== 'operation') {
    incoming.resume();
    const refusal = route.kind === 'not-found' ? notFound(path) : methodNotAllowed(method, path, route.allow);
    refuse(response, runtime, refusal, path, route.kind === 'not-found' ? {} : { allow: route.allow.join(', ') });
    return;
  }
  const body = await readBody(incoming, runtime.bodyLimit);
  if (body.kind === 'too-large') {
    // Not read any further: the connection closes after the answer.
    incoming.resume();
    refuse(response, runtime, payloadTooLarge(runtime.bodyLimit, body.declared), path, { connection: 'close' });
    return;
  }
  let parsed: unknown = null;
  if (body.kind === 'read') {
    const text = body.bytes.toString('utf8');
    parsed = text;
    if (jsonMedia.test(incoming.headers['content-type'] ?? '')) {
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        refuse(response, runtime, malformedJson(error instanceof Error ? error.message : String(error)), path);
        return;
      }
    }
  }
  const request: EngineRequest = {
    method,
    path,
    query: queryOf(mark < 0 ? '' : url.slice(mark + 1)),
    headers: withBearerScheme(incoming.headers),
    body: parsed,
  };
  reply(response, runtime, request, route.key, await runtime.engine.answer(route.key, request));
}

/** One request: routed and answered by the runtime of the moment, a failure answered as a 500 problem. */
async function answer(options: FrontOptions, incoming: IncomingMessage, response: ServerResponse): Promise<void> {
  let runtime: MockRuntime | undefined;
  try {
    runtime = await options.runtime();
    await handle(runtime, incoming, response);
  } catch (error) {
    if (runtime === undefined || response.headersSent) {
      response.destroy();
      return;
    }
    const detail = `The mock failed to answer: ${error instanceof Error ? error.message : String(error)}`;
    const head = problemHead(runtime.catalogue, 'internal-error');
    send(
      response,
      head.status,
      { ...runtime.problemHeaders, 'content-type': 'application/problem+json' },
      JSON.stringify({ ...head, detail }),
    );
  }
}

export async function startFront(options: FrontOptions): Promise<RunningFront> {
  const server = createServer((incoming, response) => void answer(options, incoming, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`${options.host}:${options.port} is already in use; choose another port`)
          : error,
      ),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address !== null ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
