/**
 * One request through its operation: read the JSON body, validate the request against the contract,
 * honour `Idempotency-Key`, call the handler and send what it returns in the media type the contract
 * documents for that status.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BoardInputError, BoardStateError } from '../../board/errors.js';
import type { EventStreamEvent } from '../../contract/sse.js';
import type { AppOptions } from './app-options.js';
import { handlerContext } from './context.js';
import type { HandlerMap } from './handler-types.js';
import { idempotencyHeader, replayedHeader, requestHashOf, storedResponse } from './idempotency.js';
import { parseJsonBody } from './json-body.js';
import { jsonPayloadOf, jsonTextOf } from '../core/json-text.js';
import { ProblemError, problemMediaType } from '../core/problems.js';
import { describeViolations, validateRequest } from './request-validation.js';
import { requestSignal, stateOf } from './request-state.js';
import type { ResponseValidator } from './response-validation.js';
import type { Route } from './routes.js';
import type { Claim } from '../store/idempotency.js';
import type { Services } from '../services.js';
import { boundedStream, eventStreamText } from './sse.js';
import { defaultClientLimits } from './client-limits.js';

interface AnyReply {
  status: number;
  body?: unknown;
  stream?: AsyncIterable<EventStreamEvent>;
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
  return parseJsonBody(raw);
}

/** The headers a handler set (one it left `undefined` is not sent). */
function definedHeaders(result: AnyReply): Record<string, string> {
  if (result.headers === undefined) {
    return {};
  }
  return Object.fromEntries(
    Object.entries(result.headers ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
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
  /** Calls the handler; errors of the board and problems become the problem answer they stand for. */
  const run = (): AnyReply | Promise<AnyReply> => {
    const handler = handlers[route.operationId] as unknown as (
      request: unknown,
      context: unknown,
    ) => AnyReply | Promise<AnyReply>;
    const problemReply = (error: unknown): AnyReply => {
      const problem = asProblem(error);
      if (problem === undefined) {
        throw error;
      }
      return {
        status: problem.status,
        body: services.problems.body(problem.status, problem.detail, problem.extensions, request.url.split('?')[0]),
        headers: problem.headers,
      };
    };
    try {
      const answer = handler(
        value,
        handlerContext(services, state.apiVersion, state.principal, () => requestSignal(state)),
      );
      return answer instanceof Promise ? answer.catch(problemReply) : answer;
    } catch (error) {
      return problemReply(error);
    }
  };

  let result: AnyReply;
  if (key !== undefined && workspaceId !== undefined) {
    const requestHash = requestHashOf(route.operationId, value.path, value.body);
    const { idempotency } = services.store;
    // The claim, the handler's work and the answer recorded for the key commit together: a crash leaves
    // all of them (a retry is replayed) or none (a retry runs afresh), never a claim stuck in flight.
    const outcome = services.store.transaction(
      (): Exclude<Claim, { outcome: 'claimed' }> | { outcome: 'answered'; result: AnyReply } => {
        const claim = idempotency.claim(workspaceId, key, requestHash, services.clock.now());
        if (claim.outcome !== 'claimed') {
          return claim;
        }
        const answer = run();
        if (answer instanceof Promise) {
          throw new Error(`${route.operationId} takes an Idempotency-Key, so its handler must answer synchronously`);
        }
        // Server faults are not recorded, so a retry with the same key can succeed (Stripe does the same).
        if (answer.status >= 500) {
          idempotency.release(workspaceId, key);
        } else {
          const payload = answer.body === undefined ? undefined : jsonTextOf(answer.body);
          idempotency.complete(
            workspaceId,
            key,
            storedResponse(answer.status, definedHeaders(answer), route.mediaTypes.get(answer.status), payload),
          );
        }
        return { outcome: 'answered', result: answer };
      },
    );
    if (outcome.outcome === 'mismatch') {
      throw new ProblemError(
        409,
        'This Idempotency-Key was used with another request; use a new key for a new request.',
      );
    }
    if (outcome.outcome === 'in_flight') {
      throw new ProblemError(409, 'A request with this Idempotency-Key is still being processed; retry later.');
    }
    if (outcome.outcome === 'replay') {
      const { status, headers, body: stored } = outcome.response;
      reply.code(status).headers({ ...headers, [replayedHeader]: 'true' });
      return stored === null ? reply.send() : reply.send(stored);
    }
    result = outcome.result;
  } else {
    // Most handlers answer synchronously; awaiting only a promise saves a turn of the microtask queue.
    const answer = run();
    result = answer instanceof Promise ? await answer : answer;
  }

  const headers = definedHeaders(result);
  const mediaType = route.mediaTypes.get(result.status);
  if (result.stream !== undefined) {
    const { principal } = state;
    const text = eventStreamText(result.stream, {
      clock: services.clock,
      heartbeatMs: services.settings.heartbeatMs,
      signal: requestSignal(state),
      authorised: () =>
        principal === undefined || services.store.apiKeys.isCurrent(principal.apiKey.id, services.clock.now()),
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
    return reply.send(
      boundedStream(
        options.seams?.eventStream(request, text) ?? text,
        reply.raw,
        (options.clientLimits ?? defaultClientLimits).stream,
      ),
    );
  }
  const payload = result.body === undefined ? undefined : jsonPayloadOf(result.body);
  reply.code(result.status).headers(headers);
  if (payload === undefined) {
    return reply.send();
  }
  return reply.type(mediaType ?? (result.status >= 400 ? problemMediaType : 'application/json')).send(payload);
}
