/**
 * The mock of the API for clients built before any implementation exists: Prism serving the mock
 * document (`document.ts`) derived from the bundled contract.
 *
 * Static mode (the default) answers with the contract's named examples and runs Prism with `--errors`:
 * should Prism find one of its own responses invalid against the document, it answers
 * `500 …#VIOLATIONS` instead of passing it on, so the mock cannot silently serve an invalid body. Dynamic
 * mode generates bodies from the schemas with json-schema-faker; it runs without `--errors`, because the
 * faker mis-generates some schemas of the contract (array `const` inside `oneOf`, see mocks/README.md) and
 * Prism then reports the violations in the `sl-violations` header instead of failing the request.
 * `-v warn`: at its default `info` level Prism writes several log lines for every request, which each
 * request pays for in CPU; warnings and errors are still shown.
 * @module
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract, type OpenApiDocument } from '../contract/load.js';
import { createMockDocument } from './document.js';
import { startFront } from './front.js';
import { baseUrlOf, freePort, startPrism, type PrismOutput, type PrismProcess } from './prism.js';

export const defaultMockHost = '127.0.0.1';
export const defaultMockPort = 4010;

export interface MockOptions {
  host?: string;
  port?: number;
  /** Generate bodies from the schemas instead of serving the named examples. */
  dynamic?: boolean;
  output?: PrismOutput;
  /** The bundled contract to mock (default: the package's own). */
  contract?: OpenApiDocument;
}

export interface RunningMock {
  /** The mock's base URL: the `{base_url}` the contract's paths hang from. */
  baseUrl: string;
  /** The document Prism serves. */
  document: OpenApiDocument;
  prism: PrismProcess;
  /** Stops Prism and removes the document it served. */
  stop(): Promise<void>;
}

/** Prism's arguments for the mock, after the document. */
export function mockFlags(dynamic: boolean): string[] {
  const verbosity = ['-v', 'warn'];
  // fillProperties=false: the faker would otherwise add random members to objects that allow them.
  return dynamic
    ? [...verbosity, '--dynamic', '--json-schema-faker-fillProperties=false']
    : [...verbosity, '--errors'];
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? defaultMockHost;
  const port = options.port ?? defaultMockPort;
  const baseUrl = baseUrlOf(host, port);
  const document = createMockDocument(options.contract ?? loadContract(), { baseUrl });
  const folder = await mkdtemp(join(tmpdir(), 'boardkit-mock-'));
  const file = join(folder, 'openapi.mock.json');
  try {
    await writeFile(file, JSON.stringify(document));
    // Prism listens on a private loopback port behind the front door (`front.ts`), which owns `port`.
    const prismHost = '127.0.0.1';
    const prismPort = await freePort(prismHost);
    const prism = await startPrism({
      args: ['mock', file, ...mockFlags(options.dynamic === true)],
      host: prismHost,
      port: prismPort,
      output: options.output ?? 'pipe',
    });
    let front;
    try {
      front = await startFront({ host, port, upstream: { host: prismHost, port: prismPort }, contract: document });
    } catch (error) {
      await prism.stop();
      throw error;
    }
    const stop = async (): Promise<void> => {
      await front.close();
      await prism.stop();
      await rm(folder, { recursive: true, force: true });
    };
    return { baseUrl, document, prism, stop };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
