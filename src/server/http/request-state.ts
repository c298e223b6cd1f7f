/**
 * What the request pipeline learns about a request before its handler runs: the operation, the version
 * it is processed as, the caller, the rate-limit headers to send, and an abort signal for when the client
 * goes away. Kept under a symbol of this module, so Fastify's types stay untouched.
 * @module
 */
import type { ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../ports/handlers.js';
import type { Route } from './routes.js';

export interface RequestState {
  route: Route | undefined;
  apiVersion: string;
  principal: Principal | undefined;
  rateLimitHeaders: Record<string, string>;
  /** The response, whose `close` ends the request's signal. */
  response: ServerResponse;
  /** Made by `requestSignal` when something first waits on the request (a long poll, a stream). */
  abort: AbortController | undefined;
}

/**
 * The reason every request's signal aborts with, made once: `abort()` without one builds a new
 * `DOMException` for every request that ends, a cost on the fastest operations (docs/benchmarks.md).
 */
const clientGone = new DOMException('The answer is done or the client went away.', 'AbortError');

/**
 * A signal that aborts when the answer is done or the client goes away: the response's `close` (not the
 * request's). Made on first use, since most requests are answered without waiting on anything and an
 * `AbortController` with its listener per request was a cost on the fastest ones (docs/benchmarks.md).
 */
export function requestSignal(state: RequestState): AbortSignal {
  if (state.abort === undefined) {
    const abort = new AbortController();
    state.abort = abort;
    if (state.response.closed) {
      abort.abort(clientGone);
    } else {
      state.response.once('close', () => abort.abort(clientGone));
    }
  }
  return state.abort.signal;
}

/**
 * The state rides on the request under a symbol of this module, not in a `WeakMap` beside it: every entry
 * of a long-lived `WeakMap` keyed by a short-lived request is extra work for the young-generation
 * collector, a few percent of the CPU of `GET /v1/sessions/{id}` (docs/benchmarks.md).
 */
const stateKey = Symbol('boardkit.requestState');

interface WithState {
  [stateKey]?: RequestState;
}

export function setStateOf(request: FastifyRequest, state: RequestState): void {
  (request as WithState)[stateKey] = state;
}

export function stateOf(request: FastifyRequest): RequestState | undefined {
  return (request as WithState)[stateKey];
}
