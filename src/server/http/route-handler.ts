/**
 * One operation's request handler, built once per route from the operation and what it depends on. A
 * request goes through named steps: its body decoded, the request validated against the contract, the
 * handler called (inside the idempotency transaction when the write carries an `Idempotency-Key`), and
 * what it returns sent as an event stream or in the media type the contract documents for its status.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '../core/problems.js';
import type { AppOptions } from '../ports/app.js';
import type { HandlerMap } from '../ports/handlers.js';
import type { Services } from '../ports/services.js';
import { handlerContext } from './context.js';
import { idempotencyHeader } from './idempotency.js';
import { bindHandler, callHandler, type RouteReply } from './pipeline/handler-call.js';
import { callIdempotently } from './pipeline/idempotent-call.js';
import { decodeBody } from './pipeline/request-body.js';
import { sendJson, sendReplay, sendStream } from './pipeline/send-reply.js';
import { requestSignal, stateOf, type RequestState } from './request-state.js';
import { describeViolations, validateRequest, type ValidatedRequest } from './request-validation.js';
import type { ResponseValidator } from './response-validation.js';
import type { Route } from './routes.js';
import { internalError } from '../core/internal-errors.js';

export interface RouteDependencies {
  services: Services;
  handlers: HandlerMap;
  /** Checks each event of a stream against the contract (`validateResponses`). */
  validator: ResponseValidator | undefined;
  options: Pick<AppOptions, 'onResponseViolation' | 'seams' | 'clientLimits'>;
}

const writeMethods = new Set(['post', 'patch', 'delete']);

/** The request validated against the operation's schemas; a `400` naming what is wrong otherwise. */
function validated(services: Services, route: Route, request: FastifyRequest): ValidatedRequest {
  const { value, violations } = validateRequest(services.validator, route, {
    path: request.params as Record<string, string>,
    query: request.query as Record<string, unknown>,
    headers: request.headers,
    body: decodeBody(route, request),
  });
  if (violations.length > 0) {
    throw new ProblemError(400, describeViolations(violations), { errors: violations.slice(0, 20) });
  }
  return value;
}

function requestStateOf(request: FastifyRequest): RequestState {
  const state = stateOf(request);
  if (state === undefined) {
    throw internalError('BOARDKIT_PIPELINE_NOT_RUN');
  }
  return state;
}

export function routeHandler(
  route: Route,
  deps: RouteDependencies,
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  const { services } = deps;
  const call = bindHandler(deps.handlers, route.operationId);
  const idempotent = writeMethods.has(route.method);

  return async (request, reply) => {
    const state = requestStateOf(request);
    const value = validated(services, route, request);
    const run = (): RouteReply | Promise<RouteReply> =>
      callHandler(
        call,
        value,
        handlerContext(services, state.apiVersion, state.principal, () => requestSignal(state)),
        services,
        request.url.split('?')[0],
      );

    const key = idempotent ? (value.headers[idempotencyHeader] as string | undefined) : undefined;
    const workspaceId = state.principal?.workspace.id;
    let result: RouteReply;
    if (key !== undefined && workspaceId !== undefined) {
      const outcome = callIdempotently(services, route, { workspaceId, key }, value, run);
      if ('replay' in outcome) {
        return sendReplay(reply, outcome.replay);
      }
      result = outcome.fresh;
    } else {
      // Most handlers answer synchronously; awaiting only a promise saves a turn of the microtask queue.
      const answer = run();
      result = answer instanceof Promise ? await answer : answer;
    }

    if (result.stream !== undefined) {
      return sendStream(request, reply, { ...result, stream: result.stream }, { ...deps, route, state });
    }
    return sendJson(route, reply, result);
  };
}
