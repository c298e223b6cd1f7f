/**
 * Calling an operation's handler: bound once per route from the typed handler map, and answering the
 * errors of the board and the problems it raises as the problem replies they stand for.
 * @module
 */
import { BoardInputError, BoardStateError } from '../../../board/errors.js';
import type { EventStreamEvent } from '../../../contract/sse.js';
import { ProblemError } from '../../core/problems.js';
import type { HandlerContext, HandlerMap, OperationId } from '../../ports/handlers.js';
import type { Services } from '../../ports/services.js';
import type { ValidatedRequest } from '../request-validation.js';

/** What any handler returns, whatever its operation. */
export interface RouteReply {
  status: number;
  body?: unknown;
  stream?: AsyncIterable<EventStreamEvent>;
  headers?: Record<string, string | undefined>;
}

export type RouteCall = (request: ValidatedRequest, context: HandlerContext) => RouteReply | Promise<RouteReply>;

/**
 * Any entry of the handler map: it takes the typed request of its own operation (so, of no operation
 * known here: `never`) and returns one of that operation's documented replies, each a `RouteReply`.
 */
type AnyHandler = (request: never, context: HandlerContext) => RouteReply | Promise<RouteReply>;

/**
 * The handler of one operation, taking the request validated against that operation's schemas: that
 * validation is what makes it the operation's typed request.
 */
export function bindHandler(handlers: HandlerMap, operationId: OperationId): RouteCall {
  const handler: AnyHandler = handlers[operationId];
  return (request, context) => handler(request as never, context);
}

/** Errors of the board simulator, in the problem catalogue's terms. */
function asProblem(error: unknown): ProblemError | undefined {
  if (error instanceof ProblemError) {
    return error;
  }
  if (error instanceof BoardInputError) {
    return new ProblemError(400, error.message, {
      errors: [{ pointer: `#/body${error.pointer}`, detail: error.message }],
    });
  }
  if (error instanceof BoardStateError) {
    return new ProblemError(409, error.message);
  }
  return undefined;
}

/** Calls the handler; errors of the board and problems become the problem answer they stand for. */
export function callHandler(
  call: RouteCall,
  request: ValidatedRequest,
  context: HandlerContext,
  services: Services,
  instance: string | undefined,
): RouteReply | Promise<RouteReply> {
  const problemReply = (error: unknown): RouteReply => {
    const problem = asProblem(error);
    if (problem === undefined) {
      throw error;
    }
    return {
      status: problem.status,
      body: services.problems.body(problem.status, problem.detail, problem.extensions, instance),
      headers: problem.headers,
    };
  };
  try {
    const answer = call(request, context);
    return answer instanceof Promise ? answer.catch(problemReply) : answer;
  } catch (error) {
    return problemReply(error);
  }
}
