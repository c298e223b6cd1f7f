/**
 * What every request goes through before its body is read (Fastify's `onRequest`): the version it is
 * processed as, a wrong path or method refused, the caller authenticated and their tier checked, and the
 * request counted against its rate-limit bucket. Each refusal is a problem of the catalogue.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiVersionHeader } from './api-version.js';
import { authenticate, requireTier } from './auth.js';
import { ProblemError } from './problems.js';
import { requestStates, type RequestState } from './request-state.js';
import type { Route } from './routes.js';
import type { Services } from './services.js';

export async function admit(services: Services, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const config = request.routeOptions.config as { route?: Route; allow?: string[] };
  const route = config.route;
  const state: RequestState = {
    route,
    apiVersion: services.versions.current,
    principal: undefined,
    rateLimitHeaders: {},
    abort: new AbortController(),
  };
  requestStates.set(request, state);
  // The response's `close` (not the request's): it fires when the answer is done or the client goes away.
  reply.raw.on('close', () => state.abort.abort());
  const pin = request.headers[apiVersionHeader.toLowerCase()];
  state.apiVersion = services.versions.negotiate(pin);
  // A wrong path or method is refused whatever the request carries, before its body is read.
  if (request.is404) {
    throw new ProblemError(404, `No resource lives at ${request.url.split('?')[0]}.`);
  }
  if (config.allow !== undefined) {
    const allow = config.allow.join(', ');
    throw new ProblemError(405, `${request.method} is not offered here; use ${allow}.`, {}, { Allow: allow });
  }
  if (route === undefined) {
    return;
  }
  if (route.authenticated) {
    state.principal = authenticate(services, request.headers.authorization);
    state.apiVersion = services.versions.negotiate(pin, state.principal.workspace.apiVersion);
    requireTier(services, state.principal.workspace);
  }
  // Per key, or per client address for the unauthenticated health probe.
  const subject = state.principal === undefined ? `address:${request.ip}` : `key:${state.principal.apiKey.id}`;
  const tier = state.principal?.workspace.tier ?? 'ultra';
  state.rateLimitHeaders = services.rateLimits.hit(subject, route.bucket, tier, services.clock.now()).headers;
}
