/**
 * The first step of a request through its operation: the raw body decoded as JSON, once the operation is
 * known to take one and the request says it is JSON (415 otherwise, 400 on bad JSON).
 * @module
 */
import type { FastifyRequest } from 'fastify';
import { ProblemError } from '../../core/problems.js';
import { parseJsonBody } from '../json-body.js';
import type { Route } from '../routes.js';

/** `application/json`, with or without parameters (RFC 8259 §11 defines no `charset` but clients send one). */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** The parsed body; `undefined` when none was sent. */
export function decodeBody(route: Route, request: FastifyRequest): unknown {
  const raw = request.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) {
    return undefined;
  }
  if (route.body === undefined) {
    throw new ProblemError(400, 'This operation takes no request body.', {
      errors: [{ pointer: '#/body', detail: 'must be empty' }],
    });
  }
  if (!isJson(request.headers['content-type'])) {
    throw new ProblemError(415, 'The request body must be application/json.');
  }
  return parseJsonBody(raw);
}
