/**
 * The last steps of a request: sending what the handler returned, as an event stream or in the media
 * type the contract documents for its status, or the answer recorded for a replayed `Idempotency-Key`.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { jsonPayloadOf } from '../../core/json-text.js';
import { problemMediaType } from '../../core/problems.js';
import type { AppOptions } from '../../ports/app.js';
import type { StoredResponse } from '../../ports/records.js';
import type { Services } from '../../ports/services.js';
import { defaultClientLimits } from '../client-limits.js';
import { replayedHeader } from '../idempotency.js';
import type { RequestState } from '../request-state.js';
import { requestSignal } from '../request-state.js';
import type { ResponseValidator } from '../response-validation.js';
import type { Route } from '../routes.js';
import { boundedStream, eventStreamText } from '../sse.js';
import type { RouteReply } from './handler-call.js';

/** The headers a handler set (one it left `undefined` is not sent). */
export function definedHeaders(result: RouteReply): Record<string, string> {
  if (result.headers === undefined) {
    return {};
  }
  return Object.fromEntries(
    Object.entries(result.headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** The answer recorded for an `Idempotency-Key`, marked as a replay. */
export function sendReplay(reply: FastifyReply, stored: StoredResponse): FastifyReply {
  const { status, headers, body } = stored;
  reply.code(status).headers({ ...headers, [replayedHeader]: 'true' });
  return body === null ? reply.send() : reply.send(body);
}

/** What sending an event stream needs besides the reply. */
export interface StreamSending {
  services: Services;
  route: Route;
  state: RequestState;
  validator: ResponseValidator | undefined;
  options: Pick<AppOptions, 'onResponseViolation' | 'seams' | 'clientLimits'>;
}

/** An event stream: heartbeats, the key checked as it goes, each event checked against the contract. */
export function sendStream(
  request: FastifyRequest,
  reply: FastifyReply,
  result: RouteReply & { stream: NonNullable<RouteReply['stream']> },
  { services, route, state, validator, options }: StreamSending,
): FastifyReply {
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
    .headers({ ...definedHeaders(result), 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' })
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

/** A JSON (or problem) body in the media type the contract documents for the status, or none. */
export function sendJson(route: Route, reply: FastifyReply, result: RouteReply): FastifyReply {
  const payload = result.body === undefined ? undefined : jsonPayloadOf(result.body);
  reply.code(result.status).headers(definedHeaders(result));
  if (payload === undefined) {
    return reply.send();
  }
  const mediaType = route.mediaTypes.get(result.status);
  return reply.type(mediaType ?? (result.status >= 400 ? problemMediaType : 'application/json')).send(payload);
}
