/**
 * What the HTTP application is built from: the services, the handler map, response validation, the
 * client limits, and the seams where a control plane plugs in. Types only, importing nothing of the
 * server (docs/architecture.md), so the app, its pipeline, the server's start and the control planes
 * share them without importing each other.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerMap } from './handlers.js';
import type { Services } from './services.js';

/** A response that broke the contract (with response validation on). */
export interface ResponseViolation {
  operationId: string;
  status: number;
  problems: string[];
}

/** How far an event stream's reader may fall behind, and for how long (src/server/http/sse.ts). */
export interface StreamBounds {
  /** `x-limits.event_stream_buffer_max_bytes`: how far a reader may fall behind. */
  maxBufferedBytes: number;
  /** `x-limits.event_stream_stall_seconds`: how long a reader that far behind may take to catch up. */
  stallMs: number;
}

/** How long a client may take to send a request and how many connections the server holds (`x-limits`). */
export interface ClientLimits {
  /** `request_headers_timeout_seconds`: the request line and headers must arrive within this time. */
  headersTimeoutMs: number;
  /** `request_timeout_seconds`: the whole request, headers and body. */
  requestTimeoutMs: number;
  /** `idle_connection_timeout_seconds`: a kept-alive connection waiting for its next request. */
  idleTimeoutMs: number;
  /** `connections_max`. */
  maxConnections: number;
  /** How far an event stream's reader may fall behind, and for how long. */
  stream: StreamBounds;
}

export interface AppOptions {
  services: Services;
  handlers: HandlerMap;
  /** Check every response against the contract; a response that breaks it becomes a `500`. */
  validateResponses?: boolean;
  /** Called with each response that broke the contract (tests collect them). */
  onResponseViolation?: (violation: ResponseViolation) => void;
  /** Called with unexpected errors; the client only ever sees an `internal-error` problem. */
  onError?: (error: unknown) => void;
  /** Test-only code plugged in (`--test-control`); a normal start has none. */
  seams?: AppSeams;
  /** Timeouts and the connection cap; the contract's `x-limits` by default. */
  clientLimits?: ClientLimits;
}

/**
 * Where test-only code plugs into the app: the control plane and the fault switches of
 * src/test-control. Its routes are marked `outsideContract` in their config.
 */
export interface AppSeams {
  /** Before routing: may change the raw request's method, URL and headers; returns the URL to route. */
  rewriteUrl: (request: IncomingMessage) => string;
  /** Adds routes and hooks, before the app's own. */
  register(app: FastifyInstance): void;
  /** The last `onSend` hook: it sees the response as it would leave. */
  onSend: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;
  /** Passes the text of an event stream on as it is written. */
  eventStream(request: FastifyRequest, text: AsyncIterable<string>): AsyncIterable<string>;
}
