/**
 * The handlers' side of the server: what a handler is given (`HandlerContext`) and the types of the
 * handler map, derived from the generated `operations`: one handler per operationId of
 * `paths`, taking the operation's typed parameters and body and returning one of its documented responses.
 * An operation without a handler, a status the operation does not document, or a body of the wrong shape
 * fails to compile; adding an operation to the contract and regenerating makes the map incomplete until a
 * handler is written for it. Types only, importing nothing of the server (docs/architecture.md).
 * @module
 */
import type { components, operations, paths } from '../../generated/openapi.js';
import type { Services } from './services.js';
import type { ApiKey, Workspace } from './records.js';

/** Who is calling: the workspace and the key of an authenticated request. */
export interface Principal {
  workspace: Workspace;
  apiKey: ApiKey;
}

/** What a handler is given besides its request. */
export interface HandlerContext {
  readonly services: Services;
  /** The date version the request is processed as (its pin, or the workspace's default). */
  readonly apiVersion: string;
  /** The caller's workspace. Only operations without security lack one; reading it there is a bug. */
  readonly workspace: Workspace;
  readonly apiKey: ApiKey;
  /** Aborts when the client goes away, so that long polls and streams stop. */
  readonly signal: AbortSignal;
}

/**
 * JSON text that encodes a value of type `T`, written already and sent as it is (the `JsonText` class of
 * src/server/core/json-text.ts): the type is the handler's promise; the text is not parsed.
 */
export interface WrittenJson<T> {
  /** The type of the value the text encodes, for the handler map's types; it does not exist at run time. */
  readonly value: T;
  readonly text: string | Buffer;
}

type Method = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** Every operation object reachable from `paths` (the `webhooks` ones are requests the service sends). */
type PathOperation = {
  [P in keyof paths]: { [M in Method & keyof paths[P]]: Exclude<paths[P][M], undefined> }[Method & keyof paths[P]];
}[keyof paths];

/** The operationIds the server answers. */
export type OperationId = {
  [K in keyof operations]: operations[K] extends PathOperation ? K : never;
}[keyof operations];

/** An object type without its index signatures (openapi-typescript adds `[name: string]: unknown` to headers). */
type KnownKeys<T> = { [P in keyof T as string extends P ? never : number extends P ? never : P]: T[P] };

/** Headers the framework writes on every response, or on replays and 429s; handlers never set them. */
type ManagedHeader = 'X-Service-API-Version' | 'RateLimit' | 'RateLimit-Policy' | 'Idempotent-Replayed' | 'Retry-After';

type HandlerHeaders<R> = R extends { headers: infer H }
  ? { [P in Exclude<keyof KnownKeys<H>, ManagedHeader>]?: string }
  : Record<string, never>;

/**
 * One documented response as a handler returns it: a JSON body (a value, or its JSON text written already),
 * a stream of SSE events, or nothing.
 */
type ReplyFor<S, R> = R extends { content: { 'text/event-stream': infer E } }
  ? { status: S; stream: AsyncIterable<E>; headers?: HandlerHeaders<R> }
  : R extends { content: { 'application/json': infer B } }
    ? { status: S; body: B | WrittenJson<B>; headers?: HandlerHeaders<R> }
    : R extends { content: { 'application/problem+json': infer B } }
      ? { status: S; body: B; headers?: HandlerHeaders<R> }
      : { status: S; body?: undefined; headers?: HandlerHeaders<R> };

/** The union of every response an operation object documents. */
type ReplyOfOperation<O extends { responses: object }> = {
  [S in keyof O['responses']]: ReplyFor<S, O['responses'][S]>;
}[keyof O['responses']];

/** The union of every response operation `K` documents. */
export type Reply<K extends OperationId> = ReplyOfOperation<operations[K]>;

type Present<T> = [Exclude<T, undefined>] extends [never] ? Record<string, never> : Exclude<T, undefined>;

type BodyOfOperation<O extends { requestBody?: unknown }> = [Exclude<O['requestBody'], undefined>] extends [never]
  ? undefined
  : Exclude<O['requestBody'], undefined> extends { content: { 'application/json': infer B } }
    ? undefined extends O['requestBody']
      ? B | undefined
      : B
    : undefined;

/** A validated request to an operation object: path and query values coerced to their types, the JSON body parsed. */
type RequestOfOperation<
  O extends { parameters: { path?: unknown; query?: unknown; header?: unknown }; requestBody?: unknown },
> = {
  path: Present<O['parameters']['path']>;
  query: Present<O['parameters']['query']>;
  headers: Present<O['parameters']['header']>;
  body: BodyOfOperation<O>;
};

/**
 * A validated request to operation `K`. Written over the operation object rather than its name, so that
 * two operations of the same shape (an alias and the operation it aliases) take the same handler.
 */
export type RequestOf<K extends OperationId> = RequestOfOperation<operations[K]>;

type OperationHandler<
  O extends {
    parameters: { path?: unknown; query?: unknown; header?: unknown };
    requestBody?: unknown;
    responses: object;
  },
> = (request: RequestOfOperation<O>, context: HandlerContext) => ReplyOfOperation<O> | Promise<ReplyOfOperation<O>>;

/** The handler of operation `K`; an alias and the operation it aliases have the same shape, so one handler serves both. */
export type Handler<K extends OperationId> = OperationHandler<operations[K]>;

/**
 * The server: exactly one handler per operation of the contract. Each entry is typed by the operation
 * object, so that an alias may share the handler of the operation it aliases (their shapes are equal).
 */
export type HandlerMap = { [K in OperationId]: OperationHandler<operations[K]> };

/** A problem reply of a given status, for handlers that answer an error rather than raise it. */
export interface ProblemReply<S extends number> {
  status: S;
  body: components['schemas']['Problem'];
}
