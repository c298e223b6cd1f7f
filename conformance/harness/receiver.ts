/**
 * The webhook receiver the suite hosts (a reverse-role harness, like OpenID's CIBA notification endpoint):
 * a node:http server on 127.0.0.1 with one endpoint per subscription under test. Each endpoint records
 * every delivery byte for byte and answers with the status the check programs (200, or a failure).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  /** Order of arrival across the receiver. */
  seq: number;
  /** Real time of arrival, epoch ms. */
  receivedAt: number;
  method: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The body exactly as received: signatures cover these bytes. */
  rawBody: Buffer;
  /** The status the receiver answered. */
  answered: number;
  /** The check the endpoint was made for, when it said. */
  owner?: string;
}

/** A fixed status, or one chosen per delivery (`index` counts this endpoint's deliveries from 0). */
export type Answer = number | ((delivery: Omit<Delivery, 'answered'>, index: number) => number);

export interface ReceiverEndpoint {
  url: string;
  deliveries(): readonly Delivery[];
  answerWith(answer: Answer): void;
  /** Resolves `true` once `ready(deliveries)` holds, `false` after `timeoutMs` real ms or on abort. */
  waitFor(
    ready: (deliveries: readonly Delivery[]) => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean>;
}

interface EndpointState {
  owner: string | undefined;
  answer: Answer;
  deliveries: Delivery[];
  waiters: Set<() => void>;
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return headers;
}

/** What every view of one receiver shares: its endpoints and the arrival counter. */
interface ReceiverState {
  endpoints: Map<string, EndpointState>;
  seq: number;
}

export class WebhookReceiver {
  readonly #state: ReceiverState;
  readonly #owner: string | undefined;

  private constructor(
    readonly server: Server,
    readonly origin: string,
    state: ReceiverState = { endpoints: new Map(), seq: 0 },
    owner?: string,
  ) {
    this.#state = state;
    this.#owner = owner;
  }

  /** The same receiver, whose new endpoints belong to `owner` (a check) unless they say otherwise. */
  forCheck(owner: string): WebhookReceiver {
    return new WebhookReceiver(this.server, this.origin, this.#state, owner);
  }

  /**
   * Listens on `host` (loopback by default; another address of this machine for a target elsewhere), on
   * `port` when the target was configured with a URL of the receiver beforehand (a free one by default).
   */
  static async start(host = '127.0.0.1', port = 0): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((request, response) => receiver?.handle(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    const bound = (server.address() as AddressInfo).port;
    receiver = new WebhookReceiver(server, `http://${host.includes(':') ? `[${host}]` : host}:${bound}`);
    return receiver;
  }

  /** A new endpoint with its own unguessable path. */
  endpoint(answer: Answer = 200, owner: string | undefined = this.#owner): ReceiverEndpoint {
    return this.endpointAt(`/hooks/${randomBytes(9).toString('base64url')}`, answer, owner);
  }

  /**
   * The endpoint at a path known beforehand (the legacy webhook's `/legacy`, which the implementer sets
   * as a key's URL before the run), made on first use: until then its deliveries are answered 404.
   */
  endpointAt(path: string, answer: Answer = 200, owner: string | undefined = this.#owner): ReceiverEndpoint {
    const state = this.#state.endpoints.get(path) ?? { owner, answer, deliveries: [], waiters: new Set() };
    this.#state.endpoints.set(path, state);
    return {
      url: `${this.origin}${path}`,
      deliveries: () => state.deliveries,
      answerWith: (next) => {
        state.answer = next;
      },
      waitFor: (ready, timeoutMs, signal) =>
        new Promise((resolve) => {
          const finish = (result: boolean): void => {
            clearTimeout(timer);
            state.waiters.delete(test);
            signal?.removeEventListener('abort', abort);
            resolve(result);
          };
          const test = (): void => {
            if (ready(state.deliveries)) {
              finish(true);
            }
          };
          const abort = (): void => finish(false);
          const timer = setTimeout(() => finish(ready(state.deliveries)), timeoutMs);
          signal?.addEventListener('abort', abort, { once: true });
          state.waiters.add(test);
          test();
        }),
    };
  }

  /** Every delivery of every endpoint, in order of arrival (what the coverage of a run reads). */
  all(): Delivery[] {
    return [...this.#state.endpoints.values()]
      .flatMap((state) =>
        state.deliveries.map((delivery) =>
          state.owner === undefined ? delivery : { ...delivery, owner: state.owner },
        ),
      )
      .sort((a, b) => a.seq - b.seq);
  }

  private handle(request: IncomingMessage, response: import('node:http').ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const state = this.#state.endpoints.get(request.url ?? '');
      const received = {
        seq: ++this.#state.seq,
        receivedAt: Date.now(),
        method: request.method ?? '',
        headers: headersOf(request),
        rawBody: Buffer.concat(chunks),
      };
      if (state === undefined) {
        response.writeHead(404).end();
        return;
      }
      const index = state.deliveries.length;
      const answered = typeof state.answer === 'number' ? state.answer : state.answer(received, index);
      state.deliveries.push({ ...received, answered });
      response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'failing on purpose');
      state.waiters.forEach((waiter) => waiter());
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
