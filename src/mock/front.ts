/**
 * The mock's front door: a small HTTP layer in front of Prism that answers the two kinds of bad input
 * Prism handles before it looks at the contract, with the contract's own problems (seed "Errors"):
 * a body over 1 MiB (`413 payload-too-large`) and a JSON body that does not parse (`400 invalid-request`).
 * Prism would answer the first by reading it all and the second with its own `{"error": …}` body, without
 * `X-Service-API-Version`. Everything else is passed to Prism unchanged.
 * @module
 */
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { OpenApiDocument } from '../contract/load.js';
import { problemHead, problemTypes } from '../contract/problem-types.js';

/** The contract's request body limit (`x-limits.request_body_max_bytes`, designed). */
const defaultBodyLimit = 1_048_576;

export interface FrontOptions {
  host: string;
  port: number;
  /** Where Prism listens. */
  upstream: { host: string; port: number };
  contract: OpenApiDocument;
}

export interface RunningFront {
  server: Server;
  close(): Promise<void>;
}

export async function startFront(options: FrontOptions): Promise<RunningFront> {
  const contract = options.contract as Record<string, any>;
  const catalogue = problemTypes(options.contract);
  const version = String(contract['x-api-versions']?.current ?? contract['info']?.version);
  const bodyLimit = Number(contract['x-limits']?.request_body_max_bytes?.value ?? defaultBodyLimit);

  const problem = (response: ServerResponse, slug: string, detail: string, instance: string): void => {
    const head = problemHead(catalogue, slug);
    response.writeHead(head.status, {
      'content-type': 'application/problem+json',
      'x-service-api-version': version,
      connection: 'close',
    });
    response.end(JSON.stringify({ ...head, detail, instance }));
  };

  const handle = (incoming: IncomingMessage, response: ServerResponse): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const instance = (incoming.url ?? '/').split('?')[0] ?? '/';
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > bodyLimit && !refused) {
        refused = true;
        problem(response, 'payload-too-large', `The request body exceeds ${bodyLimit} bytes.`, instance);
        incoming.resume();
      } else if (!refused) {
        chunks.push(chunk);
      }
    });
    incoming.on('end', () => {
      if (refused) {
        return;
      }
      const body = Buffer.concat(chunks);
      const contentType = incoming.headers['content-type'] ?? '';
      if (body.length > 0 && /^application\/(.+\+)?json\b/i.test(contentType) && !parses(body)) {
        problem(response, 'invalid-request', 'The request body is not valid JSON.', instance);
        return;
      }
      const upstream = forward(
        { ...options.upstream, method: incoming.method, path: incoming.url, headers: incoming.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => problem(response, 'internal-error', 'The mock could not reach Prism.', instance));
      upstream.end(body);
    });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`${options.host}:${options.port} is already in use; choose another port`) : error),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parses(body: Buffer): boolean {
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}
