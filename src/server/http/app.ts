/**
 * The HTTP application: Fastify with its routes registered from the contract. Fastify's own schema
 * validation is not used; every request is validated with Ajv against the contract's schemas, every
 * error is an RFC 9457 problem (unknown routes and wrong methods included), every response carries
 * `X-Service-API-Version` and, when counted, `RateLimit`/`RateLimit-Policy`, and with
 * `validateResponses` every response is checked against the contract before it leaves.
 * @module
 */
import { maxHeaderSize } from 'node:http';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { contractLimits } from '../../contract/extensions.js';
import type { AppOptions } from '../ports/app.js';
import type { Services } from '../ports/services.js';
import { apiVersionHeader } from '../domain/api-version.js';
import { routeHandler } from './route-handler.js';
import { ProblemError, problemMediaType, type ProblemStatus } from '../core/problems.js';
import { responseValidator } from './response-validation.js';
import { methodsByPath, routeTable, type Route } from './routes.js';
import { admit } from './admission.js';
import { applyClientLimits, defaultClientLimits, isRequestTimeout } from './client-limits.js';
import { stateOf } from './request-state.js';
import { registerMcpEndpoint } from './mcp-endpoint.js';
import { registerSharePage } from './share-page.js';
import { internalError } from '../core/internal-errors.js';

function sendProblem(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  error: ProblemError,
): FastifyReply {
  const body = services.problems.body(error.status, error.detail, error.extensions, request.url.split('?')[0]);
  return reply.code(error.status).headers(error.headers).type(problemMediaType).send(JSON.stringify(body));
}

/** The problem a framework error stands for; statuses the operation does not document fall back to 400. */
function problemOfFrameworkError(
  error: FastifyError,
  route: Route | undefined,
  bodyLimit: number,
): ProblemError | undefined {
  const documented = (status: ProblemStatus): ProblemStatus =>
    route === undefined || route.statuses.has(status) ? status : 400;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProblemError(documented(413), `The request body exceeds ${bodyLimit} bytes.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProblemError(documented(415), 'The request body must be application/json.');
    default:
      if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
        return new ProblemError(400, 'The request could not be read.', {
          errors: [{ pointer: '#/body', detail: error.message }],
        });
      }
      return undefined;
  }
}

export function buildApp(options: AppOptions): FastifyInstance {
  const { services, handlers, seams } = options;
  const validator =
    options.validateResponses === true ? responseValidator(services.document, services.validator) : undefined;
  const limits = options.clientLimits ?? defaultClientLimits;
  const { requestBodyMaxBytes } = contractLimits(services.document);
  const app = Fastify({
    logger: false,
    ...(seams === undefined ? {} : { rewriteUrl: seams.rewriteUrl }),
    bodyLimit: requestBodyMaxBytes,
    exposeHeadRoutes: false,
    // Long polls and event streams must not hold `close()` open.
    forceCloseConnections: true,
    return503OnClosing: false,
    // A path the router cannot decode (`%ff`) or with a segment longer than any id never reaches a
    // route either; Fastify would answer those with its own JSON.
    frameworkErrors: (error, request, reply) => {
      const detail =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'A path segment is longer than any id.'
          : 'The request path is not a valid URL (a percent-encoded byte that is not UTF-8).';
      // No hook runs for these answers, so the version every response names (seed "Versioning" 4) is set
      // here: the current one, as for the requests Node's parser refuses, since no pin was admitted.
      reply.header(apiVersionHeader, services.versions.current);
      void sendProblem(services, request, reply, new ProblemError(400, detail));
    },
    // Requests Node's HTTP parser refuses never reach a route; they still get a problem.
    clientErrorHandler: (error, socket) => {
      if (!socket.writable || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
        socket.destroy();
        return;
      }
      const timedOut = isRequestTimeout(error);
      // Headers over Node's limit (16 KiB) would get a bare 431; the catalogue answers them as invalid.
      const detail = timedOut
        ? `The request did not arrive within ${limits.headersTimeoutMs / 1000} s (headers) or ${limits.requestTimeoutMs / 1000} s (all of it).`
        : (error as NodeJS.ErrnoException).code === 'HPE_HEADER_OVERFLOW'
          ? `The request headers exceed ${maxHeaderSize} bytes.`
          : 'The request is not valid HTTP/1.1.';
      const body = JSON.stringify(services.problems.body(timedOut ? 408 : 400, detail));
      socket.end(
        [
          timedOut ? 'HTTP/1.1 408 Request Timeout' : 'HTTP/1.1 400 Bad Request',
          `Content-Type: ${problemMediaType}`,
          `Content-Length: ${Buffer.byteLength(body)}`,
          `${apiVersionHeader}: ${services.versions.current}`,
          'Connection: close',
          '',
          body,
        ].join('\r\n'),
      );
    },
  });

  applyClientLimits(app.server, limits);

  // Bodies are kept as bytes and parsed by the dispatcher, which knows the operation (415, 400 on bad JSON).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  seams?.register(app);
  // Hooks in Fastify's callback style, not async: an async hook costs a promise and a turn of the
  // microtask queue on every request (docs/benchmarks.md).
  app.addHook('onRequest', (request, reply, done) => {
    try {
      admit(services, request, reply);
    } catch (error) {
      // A refusal is answered once Node's HTTP parser has read the rest of what arrived, as an async hook
      // did: a request the parser then refuses (a TRACE with a body) gets the parser's 400, not the 405.
      queueMicrotask(() => done(error as Error));
      return;
    }
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    done(null, withContractHeaders(request, reply, payload));
  });
  function withContractHeaders(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    const state = stateOf(request);
    reply.header(apiVersionHeader, state?.apiVersion ?? services.versions.current);
    const rateLimitHeaders = state?.rateLimitHeaders;
    for (const name in rateLimitHeaders) {
      reply.header(name, rateLimitHeaders[name]);
    }
    if (
      validator === undefined ||
      (request.routeOptions.config as { outsideContract?: boolean }).outsideContract === true
    ) {
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    const problems = validator.check(state?.route, {
      status: reply.statusCode,
      contentType: typeof contentType === 'string' ? contentType : undefined,
      headers: reply.getHeaders(),
      payload: typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined,
    });
    if (problems.length === 0) {
      return payload;
    }
    const violation = { operationId: state?.route?.operationId ?? request.url, status: reply.statusCode, problems };
    options.onResponseViolation?.(violation);
    reply.code(500).type(problemMediaType);
    return JSON.stringify(
      services.problems.body(500, `The response broke the contract: ${problems.slice(0, 3).join('; ')}.`),
    );
  }
  if (seams !== undefined) {
    app.addHook('onSend', seams.onSend);
  }

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const route = stateOf(request)?.route;
    const problem = error instanceof ProblemError ? error : problemOfFrameworkError(error, route, requestBodyMaxBytes);
    if (problem !== undefined) {
      return sendProblem(services, request, reply, problem);
    }
    options.onError?.(error);
    return sendProblem(services, request, reply, new ProblemError(500, 'The server could not complete the request.'));
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(services, request, reply, new ProblemError(404, `No resource lives at ${request.url.split('?')[0]}.`)),
  );

  // The consult tool's MCP server (the contract's `x-mcp-tools`), beside the REST operations.
  registerMcpEndpoint(app, services, {
    validateOutput: options.validateResponses === true,
    ...(options.onResponseViolation === undefined ? {} : { onViolation: options.onResponseViolation }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  // The web app's share page, where share links open (outside the versioned API).
  registerSharePage(app, services);
  const routes = routeTable(services.document);
  for (const route of routes) {
    app.route({
      method: route.method.toUpperCase(),
      url: route.url,
      config: { route },
      handler: routeHandler(route, { services, handlers, validator, options }),
    });
  }
  for (const [url, methods] of methodsByPath(routes)) {
    const allow = methods.map((method) => method.toUpperCase());
    // Every other method Fastify routes is refused with 405 by the request hook.
    app.route({
      method: app.supportedMethods.filter((method) => !allow.includes(method)),
      url,
      config: { allow },
      handler: () => {
        throw internalError('BOARDKIT_PIPELINE_METHOD_NOT_OFFERED');
      },
    });
  }
  return app;
}
