/**
 * Reads a session's event stream with a real EventSource client (the `eventsource` package, WHATWG
 * semantics: it reconnects on its own after the server's `retry` hint and sends `Last-Event-ID`). The
 * fetch it uses is wrapped to authenticate, to record each connection as an exchange, and optionally to
 * cut the first connection after N events, the way a network drop would.
 * @module
 */
import { EventSource, type FetchLike } from 'eventsource';
import { type Exchange, type ExchangeLog, headersOf, redactAuthorization } from './exchange.js';

export interface ReceivedEvent {
  type: string;
  data: string;
  /** The id the client holds after this event (EventSource `lastEventId`). */
  lastEventId: string;
  /** Which connection delivered it, from 0. */
  connection: number;
}

export interface StreamConnection {
  /** The Last-Event-ID the client sent, if any. */
  lastEventIdSent: string | undefined;
  exchange: Exchange;
}

export interface StreamReading {
  events: ReceivedEvent[];
  connections: StreamConnection[];
  /** How the reading ended. */
  ended: 'terminal' | 'timeout' | 'failed';
  /** The client's error messages (reconnects and failures). */
  errors: string[];
}

export interface StreamOptions {
  url: string;
  authorization: string | undefined;
  log: ExchangeLog;
  check: string;
  /** The event names to listen for (EventSource only dispatches named events to their listeners). */
  eventNames: readonly string[];
  /** Close the stream once one of these arrives. */
  terminal: readonly string[];
  timeoutMs: number;
  /** Sent on the first connection, as a client resuming from an earlier stream would. */
  lastEventId?: string;
  /** Cut the first connection right after this many events. */
  cutAfterEvents?: number;
  signal?: AbortSignal;
}

/**
 * The offset just after the blank line that ends the `count`-th event holding data, or -1. Streams with
 * bare CR line ends are not cut (none of the tested servers uses them).
 */
function endOfEvent(text: string, count: number): number {
  const boundary = /\r?\n\r?\n/g;
  let start = 0;
  let seen = 0;
  for (let match = boundary.exec(text); match !== null; match = boundary.exec(text)) {
    const block = text.slice(start, match.index);
    start = match.index + match[0].length;
    if (/(^|\n)data/.test(block)) {
      seen++;
    }
    if (seen === count) {
      return start;
    }
  }
  return -1;
}

export function readEventStream(options: StreamOptions): Promise<StreamReading> {
  const connections: StreamConnection[] = [];
  const events: ReceivedEvent[] = [];
  const errors: string[] = [];
  const encoder = new TextEncoder();

  const recordingFetch: FetchLike = async (url, init) => {
    const index = connections.length;
    const headers: Record<string, string> = { ...init.headers };
    if (options.authorization !== undefined) {
      headers['Authorization'] = options.authorization;
    }
    if (index === 0 && options.lastEventId !== undefined) {
      headers['Last-Event-ID'] = options.lastEventId;
    }
    const sentLastEventId = headers['Last-Event-ID'];
    const recorded = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name.toLowerCase(),
        name === 'Authorization' ? redactAuthorization(value) : value,
      ]),
    );
    const exchange: Exchange = {
      id: options.log.nextId(),
      check: options.check,
      request: { method: 'GET', url: String(url), headers: recorded },
      startedAt: Date.now(),
      durationMs: 0,
      stream: true,
    };
    connections.push({ lastEventIdSent: sentLastEventId, exchange });
    let finished = false;
    const finish = (body: string, error?: string): void => {
      if (finished) {
        return;
      }
      finished = true;
      exchange.durationMs = Date.now() - exchange.startedAt;
      if (exchange.response !== undefined) {
        exchange.response.body = body;
      }
      if (error !== undefined) {
        exchange.error = error;
      }
      options.log.add(exchange);
    };
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers });
    } catch (error) {
      finish('', error instanceof Error ? error.message : String(error));
      throw error;
    }
    exchange.response = { status: response.status, headers: headersOf(response.headers), body: '' };
    const isStream = response.headers.get('content-type')?.toLowerCase().startsWith('text/event-stream') === true;
    if (!response.ok || !isStream || response.body === null) {
      const text = await response.text();
      finish(text);
      return new Response(text, { status: response.status, headers: response.headers });
    }
    let raw = '';
    const decoder = new TextDecoder();
    const cutAfter = index === 0 ? options.cutAfterEvents : undefined;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const text = decoder.decode(chunk, { stream: true });
          const cut = cutAfter === undefined ? -1 : endOfEvent(raw + text, cutAfter);
          if (cut === -1) {
            raw += text;
            controller.enqueue(encoder.encode(text));
            return;
          }
          // Deliver exactly the first N events, then fail the connection as a dropped network would.
          const kept = (raw + text).slice(raw.length, cut);
          raw += kept;
          controller.enqueue(encoder.encode(kept));
          finish(raw, 'cut by the suite to test resumption');
          controller.error(new Error('connection cut by the suite'));
        },
        flush() {
          finish(raw);
        },
      }),
    );
    // The eventsource package types its signal as `any` (polyfills differ); it is the fetch's AbortSignal.
    (init.signal as AbortSignal | undefined)?.addEventListener('abort', () => finish(raw, 'closed by the client'));
    return new Response(body, { status: response.status, headers: response.headers });
  };

  return new Promise((resolve) => {
    const source = new EventSource(options.url, { fetch: recordingFetch });
    let settled = false;
    const settle = (ended: StreamReading['ended']): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      source.close();
      options.signal?.removeEventListener('abort', onAbort);
      // Connections still open are recorded with what they carried so far.
      queueMicrotask(() => resolve({ events, connections, ended, errors }));
    };
    const onAbort = (): void => settle('timeout');
    const timer = setTimeout(() => settle('timeout'), options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    for (const name of new Set([...options.eventNames, 'message'])) {
      source.addEventListener(name, (event: MessageEvent) => {
        events.push({
          type: name,
          data: String(event.data),
          lastEventId: event.lastEventId,
          connection: connections.length - 1,
        });
        if (options.terminal.includes(name)) {
          settle('terminal');
        }
      });
    }
    source.addEventListener('error', (event: Event) => {
      const message = (event as Event & { message?: string }).message ?? 'error';
      errors.push(message);
      if (source.readyState === source.CLOSED) {
        settle('failed');
      }
    });
  });
}
