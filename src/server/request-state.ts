/**
 * What the request pipeline learns about a request before its handler runs: the operation, the version
 * it is processed as, the caller, the rate-limit headers to send, and an abort signal for when the client
 * goes away. Kept beside the request rather than on it, so Fastify's types stay untouched.
 * @module
 */
import type { FastifyRequest } from 'fastify';
import type { Principal } from './context.js';
import type { Route } from './routes.js';

export interface RequestState {
  route: Route | undefined;
  apiVersion: string;
  principal: Principal | undefined;
  rateLimitHeaders: Record<string, string>;
  abort: AbortController;
}

export const requestStates = new WeakMap<FastifyRequest, RequestState>();

export function stateOf(request: FastifyRequest): RequestState | undefined {
  return requestStates.get(request);
}
