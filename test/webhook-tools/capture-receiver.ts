/**
 * A receiver for the tests of the sending commands: it keeps every delivery it gets (headers and raw
 * body), answers 204, and lets a test wait for the next one without polling.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Captured {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface CaptureReceiver {
  url: string;
  received: Captured[];
  /** The delivery number `count` (1 for the first), once it has arrived. */
  nth(count: number): Promise<Captured>;
  close(): Promise<void>;
}

export function startCaptureReceiver(): Promise<CaptureReceiver> {
  const received: Captured[] = [];
  const waiting: Array<{ count: number; resolve: (one: Captured) => void }> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(204).end();
      for (const wait of waiting.filter(({ count }) => count <= received.length)) {
        wait.resolve(received[wait.count - 1]!);
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        received,
        nth: (count) =>
          received.length >= count
            ? Promise.resolve(received[count - 1]!)
            : new Promise((done) => waiting.push({ count, resolve: done })),
        close: () => {
          server.closeAllConnections();
          return new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}
