/**
 * What the HTTP application is built from: the services, the handler map, response validation, and the
 * seams where a control plane plugs in. Types only, so the app and its dispatcher share them without
 * importing each other.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseViolation, Services } from '../services.js';
import type { ClientLimits } from './client-limits.js';
import type { HandlerMap } from './handler-types.js';

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
