/**
 * What every control plane of the reference server shares: routes outside the contract that answer JSON,
 * read a JSON object body, refuse bad input with problems of the catalogue, and refuse the methods they do
 * not offer with `405` and `Allow`, like the contract's routes. The test-only plane of `--test-control`
 * is built on it; a plane for client teams can be too, without the conformance fault switches.
 * @module
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseJsonBody } from '../server/http/json-body.js';
import { ProblemError } from '../server/core/problems.js';
import { internalError } from '../server/core/internal-errors.js';

/** Routes outside the contract: no operation, no key, no response validation against the contract. */
export const outsideContract = { outsideContract: true };

/** A `400` naming the member of the body that is wrong. */
export function invalid(pointer: string, detail: string): ProblemError {
  return new ProblemError(400, detail, { errors: [{ pointer, detail }] });
}

/** The JSON object a request carries; `empty` stands for no body at all (refused when not given). */
export function objectBody(request: FastifyRequest, empty?: Record<string, unknown>): Record<string, unknown> {
  const body = Buffer.isBuffer(request.body) && request.body.length > 0 ? parseJsonBody(request.body) : empty;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('#/body', 'must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** A control route's answer to one method: its status (200 by default) and its JSON body. */
export interface ControlMethod {
  status?: number;
  handle: (request: FastifyRequest) => unknown;
}

/** Registers each URL's methods; every other method is refused with `405` and `Allow`. */
export function registerControlRoutes(
  app: FastifyInstance,
  routes: Record<string, Record<string, ControlMethod>>,
): void {
  for (const [url, methods] of Object.entries(routes)) {
    for (const [method, { status = 200, handle }] of Object.entries(methods)) {
      app.route({
        method,
        url,
        config: outsideContract,
        handler: async (request, reply) => reply.code(status).send(await handle(request)),
      });
    }
    const allow = Object.keys(methods);
    app.route({
      method: app.supportedMethods.filter((method) => !allow.includes(method)),
      url,
      config: { ...outsideContract, allow },
      handler: () => {
        throw internalError('BOARDKIT_PIPELINE_METHOD_NOT_OFFERED');
      },
    });
  }
}
