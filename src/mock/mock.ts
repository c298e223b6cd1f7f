/**
 * The mock of the API for clients built before any implementation exists: one HTTP server, the front
 * door (`front.ts`), routing every request by the contract and handing the routed ones to Prism running
 * in the same process (`engine.ts`) on the contract's operations (`createPrismDocument`).
 *
 * Static mode (the default) answers with the contract's named examples and runs Prism with `errors`:
 * should Prism find one of its own responses invalid against the document, it answers
 * `500 …#VIOLATIONS` instead of passing it on, so the mock cannot silently serve an invalid body. Dynamic
 * mode generates bodies from the schemas with json-schema-faker; it runs without `errors`, because the
 * faker mis-generates some schemas of the contract (array `const` inside `oneOf`, see mocks/README.md) and
 * Prism then reports the violations in the `sl-violations` header instead of failing the request.
 * Prism logs warnings and errors only (`prism mock -v warn`): its `info` lines cost every request CPU.
 *
 * `reload` swaps the whole runtime for a new contract on the same port (`boardkit mock --watch`); a
 * contract that does not compile leaves the running one in place.
 * @module
 */
import { loadContract, type OpenApiDocument } from '../contract/load.js';
import { createMockDocument, createPrismDocument } from './document.js';
import { startFront } from './front.js';
import { baseUrlOf, type PrismOutput } from './prism.js';
import { compileRuntime, type MockRuntime } from './runtime.js';

export const defaultMockHost = '127.0.0.1';
export const defaultMockPort = 4010;

export interface MockOptions {
  host?: string;
  port?: number;
  /** Generate bodies from the schemas instead of serving the named examples. */
  dynamic?: boolean;
  /** Where Prism's warnings go: the terminal, or kept for `output()`. */
  output?: PrismOutput;
  /** The bundled contract to mock (default: the package's own). */
  contract?: OpenApiDocument;
}

export interface RunningMock {
  /** The mock's base URL: the `{base_url}` the contract's paths hang from. */
  baseUrl: string;
  /** Every answer the mock gives, as a document: Prism's operations and the front door's routing problems. */
  document: OpenApiDocument;
  /** Serves `contract` from now on, on the same port; rejects, keeping the current one, if it does not compile. */
  reload(contract: OpenApiDocument): Promise<void>;
  /** Prism's latest warnings (at most 64 KiB) when its output is kept. */
  output(): string;
  /** Resolves once the mock has stopped. */
  stopped: Promise<void>;
  stop(): Promise<void>;
}

const outputLimit = 64 * 1024;

interface Compiled {
  runtime: MockRuntime;
  document: OpenApiDocument;
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? defaultMockHost;
  let kept = '';
  const engineOptions = {
    dynamic: options.dynamic === true,
    output: options.output ?? 'pipe',
    keep: (line: string) => {
      kept = (kept + line).slice(-outputLimit);
    },
  };
  // The front door listens first, so that on port 0 the links of every answer name the port it got; a
  // request that comes before the contract is compiled waits for it.
  let first: (compiled: Compiled) => void = () => undefined;
  const firstCompiled = new Promise<Compiled>((resolve) => (first = resolve));
  let current: Compiled | undefined;
  const front = await startFront({
    host,
    port: options.port ?? defaultMockPort,
    runtime: () => current?.runtime ?? firstCompiled.then((compiled) => compiled.runtime),
  });
  const baseUrl = baseUrlOf(host, front.port);
  const compile = async (contract: OpenApiDocument): Promise<Compiled> => ({
    runtime: await compileRuntime(createPrismDocument(contract, { baseUrl }), engineOptions),
    document: createMockDocument(contract, { baseUrl }),
  });
  try {
    current = await compile(options.contract ?? loadContract());
    first(current);
  } catch (error) {
    await front.close();
    throw error;
  }
  let markStopped = (): void => undefined;
  const stopped = new Promise<void>((done) => (markStopped = done));
  const mock: RunningMock = {
    baseUrl,
    document: current.document,
    async reload(contract) {
      current = await compile(contract);
      mock.document = current.document;
    },
    output: () => kept,
    stopped,
    async stop() {
      await front.close();
      markStopped();
    },
  };
  return mock;
}
