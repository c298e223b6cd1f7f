/**
 * What the hostile-input and isolation tests share: every operation of the bundled contract with what a
 * request to it needs (read from the contract, so that a new operation is covered without a change
 * here), a raw HTTP client that sends a path and body byte for byte (fetch would normalise `%2e%2e`
 * and `../` before they leave), the check that an answer is a problem of the catalogue, and a snapshot
 * of every table of the store.
 */
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import type { OperationObject, ParameterObject, RequestBodyObject } from 'openapi-typescript';
import { loadContract, type OpenApiDocument } from '../../src/contract/load.js';
import { listOperations } from '../../src/contract/operations.js';
import { childPointer, resolve } from '../../src/contract/pointer.js';
import type { SqliteDatabase } from '../../src/server/ports/store.js';

export const document: Readonly<OpenApiDocument> = loadContract();

export interface ContractOperation {
  operationId: string;
  method: string;
  /** The path template, `/v1/sessions/{id}/shares/{share_id}/revoke`. */
  path: string;
  /** Each path parameter with the pointer to its schema. */
  pathParameters: Array<{ name: string; schemaPointer: string }>;
  queryParameters: string[];
  /** The first example of the JSON request body, when the operation takes one. */
  bodyExample: Record<string, unknown> | undefined;
  takesBody: boolean;
  authenticated: boolean;
  statuses: Set<number>;
}

function parametersOf(
  pathItemPointer: string,
  operationPointer: string,
): Array<{ node: ParameterObject; pointer: string }> {
  const found = new Map<string, { node: ParameterObject; pointer: string }>();
  for (const holder of [pathItemPointer, operationPointer]) {
    const list = resolve<{ parameters?: unknown[] }>(document, holder).node.parameters ?? [];
    list.forEach((_, index) => {
      const parameter = resolve<ParameterObject>(document, childPointer(holder, 'parameters', index));
      found.set(`${parameter.node.in}:${parameter.node.name}`, parameter);
    });
  }
  return [...found.values()];
}

function bodyExampleOf(operationPointer: string): Record<string, unknown> | undefined {
  const body = resolve<RequestBodyObject>(document, childPointer(operationPointer, 'requestBody')).node;
  const media = body.content['application/json'] as { examples?: Record<string, unknown> } | undefined;
  const [name] = Object.keys(media?.examples ?? {});
  if (name === undefined) {
    throw new Error(`${operationPointer} has no request example to build hostile bodies from`);
  }
  const example = resolve<{ value: Record<string, unknown> }>(
    document,
    childPointer(operationPointer, 'requestBody', 'content', 'application/json', 'examples', name),
  );
  return example.node.value;
}

/** Every operation of `paths` in the bundled contract. */
export const operations: ContractOperation[] = listOperations(document)
  .filter((entry) => entry.source === 'paths')
  .map((entry) => {
    const operation = entry.operation as OperationObject;
    const parameters = parametersOf(entry.pathItemPointer, entry.pointer);
    return {
      operationId: entry.operationId ?? entry.pointer,
      method: entry.method.toUpperCase(),
      path: entry.path,
      pathParameters: parameters
        .filter(({ node }) => node.in === 'path')
        .map(({ node, pointer }) => ({ name: node.name, schemaPointer: childPointer(pointer, 'schema') })),
      queryParameters: parameters.filter(({ node }) => node.in === 'query').map(({ node }) => node.name),
      bodyExample: operation.requestBody === undefined ? undefined : bodyExampleOf(entry.pointer),
      takesBody: operation.requestBody !== undefined,
      authenticated: !(Array.isArray(operation.security) && operation.security.length === 0),
      statuses: new Set(Object.keys(operation.responses ?? {}).map(Number)),
    };
  });

/** The path with each `{name}` replaced by the value given, inserted as is (already encoded or not). */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) {
      throw new Error(`no value for {${name}} in ${template}`);
    }
    return value;
  });
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: Buffer | string;
}

/**
 * Sends one request exactly as given and reads the whole answer. Fails when no answer arrives within
 * `limitMs` (a hang) or the connection closes without one. A server may answer before it has read an
 * oversized body and close; the answer counts, the write error that follows does not.
 */
export function send(baseUrl: string, raw: RawRequest, limitMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((settle, fail) => {
    let answered = false;
    // Node frames a DELETE or GET body only when told its length; without it the bytes would be a second request.
    const length = raw.body === undefined ? {} : { 'content-length': Buffer.byteLength(raw.body) };
    const request = httpRequest(
      {
        host: hostname,
        port,
        method: raw.method,
        path: raw.path,
        headers: { ...length, ...raw.headers },
        agent: false,
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          clearTimeout(timer);
          settle({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      fail(new Error(`${raw.method} ${raw.path.slice(0, 120)} had no answer within ${limitMs} ms`));
    }, limitMs);
    let writeError: Error | undefined;
    // The server may answer and close while the body is still being written: the write error is kept, and
    // only a request that closes without an answer fails.
    request.on('error', (error) => {
      writeError = error;
    });
    request.on('close', () => {
      if (!answered) {
        clearTimeout(timer);
        fail(
          new Error(`${raw.method} ${raw.path.slice(0, 120)}: ${writeError?.message ?? 'closed without an answer'}`),
        );
      }
    });
    request.end(raw.body);
  });
}

interface CatalogueEntry {
  slug: string;
  status: number;
  title: string;
}

const catalogue = (document as { 'x-problem-types'?: { base_uri: string; types: CatalogueEntry[] } })[
  'x-problem-types'
];
if (catalogue === undefined) {
  throw new Error('the contract has no x-problem-types');
}
export const problemBase = catalogue.base_uri;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
}

/**
 * Checks that an answer is an RFC 9457 problem of the contract's catalogue: `application/problem+json`,
 * the body's `status` equal to the response's, `type` and `title` those of the catalogue entry for that
 * status, and the status one of `allowed` (never a 5xx). Returns the problem.
 */
export function expectProblem(answer: RawAnswer, allowed: readonly number[], context: string): Problem {
  const where = `${context} answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  expect(allowed, where).toContain(answer.status);
  expect(answer.headers['content-type'], where).toMatch(/^application\/problem\+json\b/);
  const problem = JSON.parse(answer.text) as Problem;
  const entry = catalogue?.types.find((type) => type.status === answer.status);
  expect(entry, `${where}: no catalogue entry for the status`).toBeDefined();
  expect(problem, where).toMatchObject({
    status: answer.status,
    type: `${problemBase}${entry?.slug}`,
    title: entry?.title,
  });
  return problem;
}

/** Every row of every table, in a stable order, except the tables named (they record the requests). */
export function tableSnapshot(
  db: SqliteDatabase,
  skip: readonly string[] = ['rate_limit_windows'],
): Record<string, unknown[]> {
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((row) => row.name)
    .filter((name) => !skip.includes(name));
  return Object.fromEntries(
    tables.map((name) => [
      name,
      db.prepare<[], Record<string, unknown>>(`SELECT * FROM "${name}" ORDER BY rowid`).all(),
    ]),
  );
}
