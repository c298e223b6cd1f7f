/**
 * One request through its operation: read the JSON body, validate the request against the contract,
 * honour `Idempotency-Key`, call the handler and send what it returns in the media type the contract
 * documents for that status.
 * @module
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BoardInputError, BoardStateError } from '../board/errors.js';
import type { AppOptions } from './app.js';
import { handlerContext } from './context.js';
import type { HandlerMap, OperationId } from './handler-types.js';
import { idempotencyHeader, replayedHeader, requestHashOf, storedResponse } from './idempotency.js';
import { ProblemError, problemMediaType } from './problems.js';
import { describeViolations, validateRequest } from './request-validation.js';
import { stateOf } from './request-state.js';
import type { ResponseValidator } from './response-validation.js';
import type { Route } from './routes.js';
import type { Services } from './services.js';
import { eventStreamText, type StreamEvent } from './sse.js';

interface AnyReply {
  status: number;
  body?: unknown;
  stream?: AsyncIterable<StreamEvent>;
  headers?: Record<string, string | undefined>;
}

const writeMethods = new Set(['post', 'patch', 'delete']);

/** `application/json`, with or without parameters (RFC 8259 §11 defines no `charset` but clients send one). */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

function readBody(route: Route, request: FastifyRequest): unknown {
  const raw = request.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) {
    return undefined;
  }
  if (route.body === undefined) {
    throw new ProblemError(400, 'This operation takes no request body.', {
      errors: [{ pointer: '#/body', detail: 'must be empty' }],
    });
  }
  if (!isJson(request.headers['content-type'])) {
    throw new ProblemError(415, 'The request body must be application/json.');
  }
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (error) {
    throw new ProblemError(400, 'The request body is not valid JSON.', {
      errors: [{ pointer: '#/body', detail: (error as Error).message }],
    });
  }
}

/** Errors of the board simulator, in the problem catalogue's terms. */
function asProblem(error: unknown): ProblemError | undefined {
  if (error instanceof ProblemError) {
    return error;
  }
  if (error instanceof BoardInputError) {
    return new ProblemError(400, error.message, {
      errors: [{ pointer: `#/body${error.pointer}`, detail: error.message }],
    });
  }
  if (error instanceof BoardStateError) {
    return new ProblemError(409, error.message);
  }
  return undefined;
}

export async function dispatch(
  services: Services,
  handlers: HandlerMap,
  route: Route,
  request: FastifyRequest,
  reply: FastifyReply,
  validator: ResponseValidator | undefined,
  options: AppOptions,
): Promise<FastifyReply> {
  const state = stateOf(request);
  if (state === undefined) {
    throw new Error('the request pipeline did not run');
  }
  const body = readBody(route, request);
  const { value, violations } = validateRequest(services.validator, route, {
    path: request.params as Record<string, string>,
    query: request.query as Record<string, unknown>,
    headers: request.headers,
    body,
  });
  if (violations.length > 0) {
    throw new ProblemError(400, describeViolations(violations), { errors: violations.slice(0, 20) });
  }

  const key = writeMethods.has(route.method) ? (value.headers[idempotencyHeader] as string | undefined) : undefined;
  const workspaceId = state.principal?.workspace.id;
  if (key !== undefined && workspaceId !== undefined) {
    const requestHash = requestHashOf(route.operationId, value.path, value.body);
    const claim = services.store.idempotency.claim(workspaceId, key, requestHash, services.clock.now());
    if (claim.outcome === 'mismatch') {
      throw new ProblemError(409, 'This Idempotency-Key was used with another request; use a new key for a new request.');
    }
    if (claim.outcome === 'in_flight') {
      throw new ProblemError(409, 'A request with this Idempotency-Key is still being processed; retry later.');
    }
    if (claim.outcome === 'replay') {
      const { status, headers, body: stored } = claim.response;
      reply.code(status).headers({ ...headers, [replayedHeader]: 'true' });
      return stored === null ? reply.send() : reply.send(stored);
    }
  }

  let result: AnyReply;
  try {
    const context = handlerContext(services, state.apiVersion, state.principal, state.abort.signal);
    const handler = handlers[route.operationId as OperationId] as unknown as (
      request: unknown,
      context: unknown,
    ) => AnyReply | Promise<AnyReply>;
    try {
      result = await handler(value, context);
    } catch (error) {
      const problem = asProblem(error);
      if (problem === undefined) {
        throw error;
      }
      result = {
        status: problem.status,
        body: services.problems.body(problem.status, problem.detail, problem.extensions, request.url.split('?')[0]),
        headers: problem.headers,
      };
    }
  } catch (error) {
    if (key !== undefined && workspaceId !== undefined) {
      services.store.idempotency.release(workspaceId, key);
    }
    throw error;
  }

  const headers = Object.fromEntries(
    Object.entries(result.headers ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const mediaType = route.mediaTypes.get(result.status);
  if (result.stream !== undefined) {
    const text = eventStreamText(result.stream, {
      clock: services.clock,
      heartbeatMs: services.settings.heartbeatMs,
      signal: state.abort.signal,
      onEvent: (event) => {
        const problems = validator?.checkStreamEvent(route, event as unknown as Record<string, unknown>) ?? [];
        if (problems.length > 0) {
          options.onResponseViolation?.({ operationId: route.operationId, status: result.status, problems });
        }
      },
    });
    reply
      .code(result.status)
      .headers({ ...headers, 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' })
      .type('text/event-stream; charset=utf-8');
    // Send the head at once: a client waits for it before it counts the stream as open, and the first
    // event may be a while coming. Fastify sets the headers just before it pipes the stream.
    reply.raw.once('pipe', () => reply.raw.flushHeaders());
    return reply.send(Readable.from(text));
  }
  const payload = result.body === undefined ? undefined : JSON.stringify(result.body);
  if (key !== undefined && workspaceId !== undefined) {
    // Server faults are not recorded, so a retry with the same key can succeed (Stripe does the same).
    if (result.status >= 500) {
      services.store.idempotency.release(workspaceId, key);
    } else {
      services.store.idempotency.complete(workspaceId, key, storedResponse(result.status, headers, mediaType, payload));
    }
  }
  reply.code(result.status).headers(headers);
  if (payload === undefined) {
    return reply.send();
  }
  return reply.type(mediaType ?? (result.status >= 400 ? problemMediaType : 'application/json')).send(payload);
}
