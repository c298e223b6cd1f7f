/**
 * Prism's HTTP mocker inside the mock's own process: the pinned `@stoplight/prism-cli`'s own
 * `prism-http` (resolved from the CLI package, so it is the very code `prism mock` runs) called as a
 * library. The front door (`front.ts`) has already routed the request, so Prism is handed the one
 * operation it matched and never scores the others; there is no second HTTP hop and no second parse.
 *
 * What `prism mock` adds around the library is done here the way Prism's server does it
 * (prism-http-server `server.ts`): the `Prefer` header (or `__code`/`__example`/`__dynamic`) picks the
 * response, violations go into the `sl-violations` header, and with `errors` an invalid response of
 * Prism's own becomes `500 …#VIOLATIONS`, so the mock cannot silently serve an invalid body.
 * @module
 */
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import type { OpenApiDocument } from '../contract/load.js';
import { prismEntry, type PrismOutput } from './prism.js';

/** One violation as Prism reports it in `sl-violations` (location prefixed with `request`/`response`). */
export interface PrismViolation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

/** The request as Prism's mocker takes it. */
export interface EngineRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface EngineAnswer {
  status: number;
  headers: Record<string, string | number | string[]>;
  body: unknown;
  /** Violations of the request (Prism's input validation, security included). */
  input: PrismViolation[];
  /** Violations of Prism's own answer. */
  output: PrismViolation[];
  /** What the request picked with `Prefer` (or `__code`, `__example`). */
  chosen: { code?: number; exampleKey?: string };
  /** Set when Prism answered with one of its own problems (`https://stoplight.io/prism/errors#…`). */
  prismError?: string;
}

/** The operations of a document, keyed `METHOD path` as the contract states them. */
export type OperationIndex = ReadonlyMap<string, unknown>;

export interface Engine {
  /** Prism's answer to `request` for the operation `key` of the index. */
  answer(key: string, request: EngineRequest): Promise<EngineAnswer>;
  operations: OperationIndex;
}

// Prism's parts, resolved from the CLI package the kit pins (never a second copy).
const prismRequire = createRequire(prismEntry());
const prismHttp = prismRequire('@stoplight/prism-http') as PrismHttp;
const prismCore = prismRequire('@stoplight/prism-core') as PrismCore;

/** The parts of `@stoplight/prism-http` the engine calls, as Prism 5 declares them. */
interface PrismHttp {
  getHttpOperationsFromSpec(document: unknown): Promise<Array<{ method: string; path: string }>>;
  createInstance(config: unknown, components: { logger: unknown }): PrismInstance;
  ProblemJsonError: {
    fromTemplate(template: unknown, detail: string, additional: unknown): unknown;
    toProblemJson(error: unknown): { status?: number; type?: string };
  };
  VIOLATIONS: unknown;
}

interface PrismInstance {
  request(input: unknown, operations: unknown[], config: unknown): () => Promise<unknown>;
}

interface PrismCore {
  createLogger(name: string, options: { level: string }, destination: unknown): unknown;
}
const requestConfig = (createRequire(prismRequire.resolve('@stoplight/prism-http-server')) as NodeRequire)(
  './getHttpConfigFromRequest',
) as { getHttpConfigFromRequest(input: unknown): Either<unknown, Record<string, unknown>> };
const fakerRequire = createRequire(prismRequire.resolve('@stoplight/prism-http'));
const faker = fakerRequire('json-schema-faker') as { JSONSchemaFaker: { option(name: string, value: unknown): void } };

type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };

export interface EngineOptions {
  dynamic: boolean;
  output: PrismOutput;
  /** Where piped log lines are kept. */
  keep?: (line: string) => void;
}

/** Prism's log lines (warnings and errors, as `prism mock -v warn` prints them), one line each. */
function logger(options: EngineOptions): unknown {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) {
        const line = formatLogLine(text);
        if (options.output === 'inherit') {
          process.stderr.write(line);
        } else {
          options.keep?.(line);
        }
      }
      done();
    },
  });
  return prismCore.createLogger('HTTP SERVER', { level: 'warn' }, destination);
}

function formatLogLine(text: string): string {
  try {
    const entry = JSON.parse(text) as { name?: string; msg?: string };
    return `[${entry.name ?? 'PRISM'}] ${entry.msg ?? text}\n`;
  } catch {
    return `${text}\n`;
  }
}

/** Prism's operations of `document` (the mock document: the contract's operations only). */
export async function prismOperations(document: OpenApiDocument): Promise<OperationIndex> {
  const operations = await prismHttp.getHttpOperationsFromSpec(structuredClone(document));
  return new Map(operations.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation]));
}

export function createEngine(operations: OperationIndex, options: EngineOptions): Engine {
  if (options.dynamic) {
    // The faker would otherwise add random members to objects that allow them (`prism mock
    // --json-schema-faker-fillProperties=false`); a process-wide setting of the faker, as in Prism's CLI.
    faker.JSONSchemaFaker.option('fillProperties', false);
  }
  const config = {
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    errors: !options.dynamic,
    upstreamProxy: undefined,
    isProxy: false,
    mock: { dynamic: options.dynamic, ignoreExamples: false },
  };
  const prism = prismHttp.createInstance(config, { logger: logger(options) });

  async function answer(key: string, request: EngineRequest): Promise<EngineAnswer> {
    const operation = operations.get(key);
    if (operation === undefined) {
      throw new Error(`no operation ${key}`);
    }
    const input = {
      method: request.method.toLowerCase(),
      url: { path: request.path, query: request.query },
      headers: request.headers,
      body: request.body,
    };
    const chosen = requestConfig.getHttpConfigFromRequest(input);
    if (chosen._tag === 'Left') {
      return prismProblem(chosen.left);
    }
    const picked = dropUndefined(chosen.right) as EngineAnswer['chosen'];
    const perRequest = { ...config, mock: { ...config.mock, ...picked } };
    const result = (await prism.request(input, [operation], perRequest)()) as Either<unknown, PrismResult>;
    if (result._tag === 'Left') {
      return { ...prismProblem(result.left), chosen: picked };
    }
    const { output, validations } = result.right;
    const inputViolations = validations.input.map(violation('request'));
    const outputViolations = validations.output.map(violation('response'));
    const failing = outputViolations.filter((each) => each.severity === 'Error');
    if (config.errors && failing.length > 0) {
      const problem = prismHttp.ProblemJsonError.fromTemplate(
        prismHttp.VIOLATIONS,
        'Your request/response is not valid and the --errors flag is set, so Prism is generating this error for you.',
        { validation: failing },
      );
      return { ...prismProblem(problem), input: inputViolations, output: outputViolations, chosen: picked };
    }
    return {
      status: output.statusCode,
      headers: output.headers ?? {},
      body: output.body,
      input: inputViolations,
      output: outputViolations,
      chosen: picked,
    };
  }
  return { answer, operations };
}

interface PrismResult {
  output: { statusCode: number; headers?: Record<string, string>; body: unknown };
  validations: { input: RawViolation[]; output: RawViolation[] };
}

interface RawViolation {
  path?: string[];
  severity: number;
  code?: string | number;
  message: string;
}

const severities = ['Error', 'Warning', 'Information', 'Hint'];

const violation =
  (prefix: string) =>
  (raw: RawViolation): PrismViolation => ({
    location: [prefix, ...(raw.path ?? [])],
    severity: severities[raw.severity] ?? String(raw.severity),
    ...(raw.code === undefined ? {} : { code: raw.code }),
    message: raw.message,
  });

function dropUndefined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/** One of Prism's own problems (its `ProblemJsonError`), as Prism's server would send it. */
function prismProblem(error: unknown): EngineAnswer {
  const problem = prismHttp.ProblemJsonError.toProblemJson(error);
  const extra = (error as { additional?: { headers?: Record<string, string> } }).additional?.headers ?? {};
  return {
    status: problem.status ?? 500,
    headers: { 'content-type': 'application/problem+json', ...extra },
    body: problem,
    input: [],
    output: [],
    chosen: {},
    ...(problem.type === undefined ? {} : { prismError: problem.type }),
  };
}
