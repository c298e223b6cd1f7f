/**
 * What every request goes through before its body is read (Fastify's `onRequest`): the version it is
 * processed as, a wrong path or method refused, the caller authenticated and their tier checked, and the
 * request counted against its rate-limit bucket. Each refusal is a problem of the catalogue.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiVersionHeader } from '../domain/api-version.js';
import { authenticate, requireTier } from './auth.js';
import { ProblemError } from '../core/problems.js';
import { setStateOf, type RequestState } from './request-state.js';
import type { Route } from './routes.js';
import type { Services } from '../ports/services.js';

/** Node's name of the version header (lower case). */
const pinHeader = apiVersionHeader.toLowerCase();

/** Raises the problem that refuses the request, if any (synchronous: a promise per request costs time). */
export function admit(services: Services, request: FastifyRequest, reply: FastifyReply): void {
  const config = request.routeOptions.config as { route?: Route; allow?: string[] };
  const route = config.route;
  const state: RequestState = {
    route,
    apiVersion: services.versions.current,
    principal: undefined,
    rateLimitHeaders: {},
    response: reply.raw,
    abort: undefined,
  };
  setStateOf(request, state);
  const pin = request.headers[pinHeader];
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
  // Fastify never reads the content of a GET (RFC 9110 §9.3.1: it has no defined semantics); one sent
  // anyway is refused as the dispatcher refuses any body an operation does not take.
  if (request.method === 'GET' && hasContent(request)) {
    throw new ProblemError(400, 'This operation takes no request body.', {
      errors: [{ pointer: '#/body', detail: 'must be empty' }],
    });
  }
}

function hasContent(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
