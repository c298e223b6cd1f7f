/**
 * The route table, read from the bundled contract: every operation of `paths` with its method, path,
 * parameters, request body and rate-limit bucket. The server registers exactly these routes, so the
 * contract is the only list of what it answers.
 * @module
 */
import type {
  OperationObject,
  ParameterObject,
  RequestBodyObject,
  ResponseObject,
} from '../../contract/openapi-objects.js';
import { rateLimitBucketOf, rateLimitBuckets } from '../../contract/extensions.js';
import type { OpenApiDocument } from '../../contract/load.js';
import { listOperations, type HttpMethod } from '../../contract/operations.js';
import { childPointer, resolve } from '../../contract/pointer.js';
import type { OperationId } from '../ports/handlers.js';
import type { RateLimitBucket } from '../ports/services.js';
import { internalError } from '../core/internal-errors.js';

export type ParameterLocation = 'path' | 'query' | 'header';

export interface RouteParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  /** Pointer to the parameter's schema, for the validator. */
  schemaPointer: string;
  /** The JSON type of a scalar schema (`integer`, `boolean`, …), used to coerce the string a URL carries. */
  scalarType: string | undefined;
}

export interface RouteBody {
  required: boolean;
  /** Pointer to the `application/json` schema. */
  schemaPointer: string;
  /** The branches when the schema is a `oneOf` of variants (start request A or B), else empty. */
  variantPointers: string[];
}

export interface Route {
  operationId: OperationId;
  method: HttpMethod;
  /** The contract's path template, `/v1/sessions/{id}`. */
  path: string;
  /** The same path in Fastify's syntax, `/v1/sessions/:id`. */
  url: string;
  /** Where the operation lives in the document. */
  pointer: string;
  parameters: RouteParameter[];
  body: RouteBody | undefined;
  bucket: RateLimitBucket;
  /** `false` for operations with `security: []` (the health probe). */
  authenticated: boolean;
  /** The documented response statuses. */
  statuses: Set<number>;
  /** The media type of each documented status; `undefined` for a response without a body. */
  mediaTypes: Map<number, string | undefined>;
}

/** `{id}` → `:id` (path templating, OAS 3.1 §4.8.8.1). */
export function fastifyUrl(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

function scalarTypeOf(document: OpenApiDocument, schemaPointer: string): string | undefined {
  const schema = resolve<{ type?: unknown }>(document, schemaPointer).node;
  return typeof schema.type === 'string' ? schema.type : undefined;
}

/**
 * The bucket an operation counts in (`x-rate-limit-bucket`, seed "Limits"); `reads` when it names none. A
 * bucket the contract's `x-rate-limit-buckets` does not define has no quota: refused at start rather than
 * counted against none.
 */
function bucketOf(document: OpenApiDocument, operation: object, operationId: string): RateLimitBucket {
  const name = rateLimitBucketOf(operation) ?? 'reads';
  const known = [...rateLimitBuckets(document).ultraPerMinute.keys()];
  if (!known.includes(name)) {
    throw internalError('BOARDKIT_CONTRACT_UNKNOWN_RATE_LIMIT_BUCKET', operationId, name, known.join(', '));
  }
  return name as RateLimitBucket;
}

/**
 * The parameters of an operation: those of its Path Item, overridden by its own with the same name and
 * location (OAS 3.1 §4.8.10.1). Cookies are not used by the contract.
 */
function parametersOf(document: OpenApiDocument, pathItemPointer: string, operationPointer: string): RouteParameter[] {
  const byKey = new Map<string, RouteParameter>();
  for (const holder of [pathItemPointer, operationPointer]) {
    const list = resolve<{ parameters?: unknown[] }>(document, holder).node.parameters ?? [];
    list.forEach((_, index) => {
      const { node, pointer } = resolve<ParameterObject>(document, childPointer(holder, 'parameters', index));
      if (node.in === 'cookie') {
        return;
      }
      const schemaPointer = childPointer(pointer, 'schema');
      byKey.set(`${node.in}:${node.name}`, {
        name: node.name,
        in: node.in,
        required: node.required === true,
        schemaPointer,
        scalarType: scalarTypeOf(document, schemaPointer),
      });
    });
  }
  return [...byKey.values()];
}

function bodyOf(
  document: OpenApiDocument,
  operation: OperationObject,
  operationPointer: string,
): RouteBody | undefined {
  if (operation.requestBody === undefined) {
    return undefined;
  }
  const { node, pointer } = resolve<RequestBodyObject>(document, childPointer(operationPointer, 'requestBody'));
  if (node.content['application/json'] === undefined) {
    throw internalError('BOARDKIT_CONTRACT_REQUEST_MEDIA_TYPE', operationPointer);
  }
  const schemaPointer = childPointer(pointer, 'content', 'application/json', 'schema');
  const schema = resolve<{ oneOf?: unknown[] }>(document, schemaPointer);
  const variantPointers = (schema.node.oneOf ?? []).map((_, index) => childPointer(schema.pointer, 'oneOf', index));
  return { required: node.required === true, schemaPointer, variantPointers };
}

function mediaTypesOf(
  document: OpenApiDocument,
  operationPointer: string,
  statuses: string[],
): Map<number, string | undefined> {
  return new Map(
    statuses.map((status) => {
      const response = resolve<ResponseObject>(document, childPointer(operationPointer, 'responses', status)).node;
      return [Number(status), Object.keys(response.content ?? {})[0]] as const;
    }),
  );
}

export function routeTable(document: OpenApiDocument): Route[] {
  return listOperations(document)
    .filter((entry) => entry.source === 'paths')
    .map((entry) => {
      const operation: OperationObject = entry.operation;
      if (entry.operationId === undefined) {
        throw internalError('BOARDKIT_CONTRACT_NO_OPERATION_ID', entry.pointer);
      }
      return {
        operationId: entry.operationId as OperationId,
        method: entry.method,
        path: entry.path,
        url: fastifyUrl(entry.path),
        pointer: entry.pointer,
        parameters: parametersOf(document, entry.pathItemPointer, entry.pointer),
        body: bodyOf(document, operation, entry.pointer),
        bucket: bucketOf(document, operation, entry.operationId),
        authenticated: !(Array.isArray(operation.security) && operation.security.length === 0),
        statuses: new Set(Object.keys(operation.responses ?? {}).map(Number)),
        mediaTypes: mediaTypesOf(document, entry.pointer, Object.keys(operation.responses ?? {})),
      };
    });
}

/** The documented methods of each path, for `405` answers and their `Allow` header. */
export function methodsByPath(routes: Route[]): Map<string, HttpMethod[]> {
  const methods = new Map<string, HttpMethod[]>();
  for (const route of routes) {
    methods.set(route.url, [...(methods.get(route.url) ?? []), route.method]);
  }
  return methods;
}
