/**
 * A webhook receiver for tests: a real HTTP server on 127.0.0.1 that records every delivery (headers and
 * raw body) and answers with the statuses it is told to, in order (the last one repeats).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Delivery {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: { event: string; user_id?: string; correlation_id?: string; at?: string; data: Record<string, unknown> };
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** The statuses of the next answers, in order; the last one repeats. */
  answer(...statuses: number[]): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  let statuses = [200];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      deliveries.push({ headers: request.headers, rawBody, body: JSON.parse(rawBody) as Delivery['body'] });
      const status = statuses.length > 1 ? (statuses.shift() ?? 200) : (statuses[0] ?? 200);
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    answer: (...next) => {
      statuses = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
