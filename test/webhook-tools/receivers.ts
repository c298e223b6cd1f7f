/**
 * Webhook receivers written for the tests, on 127.0.0.1: a correct one, and broken ones that each make one
 * mistake a real receiver makes. Each lists at `GET /handled` the delivery ids it acted on, one entry per
 * time, so the suite can see a duplicate handled twice.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyDelivery } from '../../src/index.js';

export interface TestReceiver {
  url: string;
  handledUrl: string;
  close(): Promise<void>;
}

/** How a receiver answers one POST: its status, given the raw body, the headers and the ids it handled. */
export type Answer = (rawBody: Buffer, headers: IncomingHttpHeaders, handled: string[]) => number | Promise<number>;

function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Acts on a delivery once per id; the status a correct receiver gives for a verified delivery. */
function handleOnce(headers: IncomingHttpHeaders, handled: string[]): number {
  const id = single(headers, 'x-service-delivery-id') ?? '';
  if (!handled.includes(id)) {
    handled.push(id);
  }
  return 204;
}

export const receiverBehaviours = {
  /** Follows docs/webhooks.md with the library's verifyDelivery. */
  correct:
    (secret: string): Answer =>
    (rawBody, headers, handled) => {
      const verdict = verifyDelivery({ secret, rawBody, headers });
      return verdict.ok ? handleOnce(headers, handled) : verdict.status;
    },
  /** Never checks the timestamp against its clock. */
  acceptsStaleTimestamps:
    (secret: string): Answer =>
    (rawBody, headers, handled) => {
      const verdict = verifyDelivery({ secret, rawBody, headers, toleranceSeconds: Number.POSITIVE_INFINITY });
      return verdict.ok ? handleOnce(headers, handled) : verdict.status;
    },
  /** Signs the JSON it parsed and serialised again, and compares with `===`. */
  signsParsedJson:
    (secret: string): Answer =>
    (rawBody, headers, handled) => {
      const signature = single(headers, 'x-service-signature');
      const timestamp = single(headers, 'x-service-timestamp');
      if (signature === undefined || timestamp === undefined) {
        return 400;
      }
      if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) {
        return 401;
      }
      let text: string;
      try {
        text = JSON.stringify(JSON.parse(rawBody.toString('utf8')));
      } catch {
        return 400;
      }
      const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${text}`).digest('hex')}`;
      return signature === expected ? handleOnce(headers, handled) : 401;
    },
  /** Verifies correctly, but fails a delivery it has already handled. */
  failsDuplicates:
    (secret: string): Answer =>
    (rawBody, headers, handled) => {
      const verdict = verifyDelivery({ secret, rawBody, headers });
      if (!verdict.ok) {
        return verdict.status;
      }
      const id = single(headers, 'x-service-delivery-id') ?? '';
      if (handled.includes(id)) {
        return 500;
      }
      handled.push(id);
      return 204;
    },
  /** Treats a missing header as a mismatch: 401 where the rule says 400. */
  ignoresMissingHeaders:
    (secret: string): Answer =>
    (rawBody, headers, handled) => {
      const verdict = verifyDelivery({ secret, rawBody, headers });
      return verdict.ok ? handleOnce(headers, handled) : 401;
    },
} as const;

export function startReceiver(answer: Answer): Promise<TestReceiver> {
  const handled: string[] = [];
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/handled') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(handled));
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void Promise.resolve(answer(Buffer.concat(chunks), request.headers, handled)).then((status) => {
        // A slow answer may come after the sender gave up.
        if (!response.destroyed) {
          response.writeHead(status).end();
        }
      });
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({
        url: `${base}/hooks`,
        handledUrl: `${base}/handled`,
        close: () => {
          server.closeAllConnections();
          return new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}
