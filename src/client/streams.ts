/**
 * The session's event streams (`GET /v1/sessions/{id}/events` and `/summary`, `text/event-stream`) read as
 * typed events: each event's `data` parsed from its line of JSON, a dropped connection resumed with
 * `Last-Event-ID` (WHATWG HTML §9.2.4), and the iteration ended by the stream's final event. Built on
 * `fetch` and a text reader only, so it runs in browsers and in Node alike.
 * @module
 */
import { parseEventStream, type ParsedEvent } from '../contract/sse.js';
import type { BoardClientOptions } from './options.js';
import type { components } from '../generated/openapi.js';

type Schemas = components['schemas'];

/** The `data` of each event of `/events`, by event name. */
export interface SessionEventData {
  'synth.message': Schemas['SynthMessageEventData'];
  'round.complete': Schemas['RoundCompleteEventData'];
  'session.complete': Schemas['SessionCompleteStreamEventData'];
  'session.failed': Schemas['SessionFailedStreamEventData'];
  'session.cancelled': Schemas['SessionCancelledStreamEventData'];
}

/** The `data` of each event of `/summary`, by event name. */
export interface SummaryEventData {
  'summary.update': Schemas['SummaryUpdateEventData'];
  'summary.final': Schemas['SummaryUpdateEventData'];
}

/** One event: its name, its id (what a later `lastEventId` resumes after) and its parsed `data`. */
export type TypedEvent<Data> = { [Name in keyof Data]: { event: Name; id: string; data: Data[Name] } }[keyof Data];
export type SessionEvent = TypedEvent<SessionEventData>;
export type SummaryEvent = TypedEvent<SummaryEventData>;

/** The events after which the server sends nothing more (the contract's terminal events). */
const finalEvents = {
  events: ['session.complete', 'session.failed', 'session.cancelled'],
  summary: ['summary.final'],
} as const satisfies { events: readonly (keyof SessionEventData)[]; summary: readonly (keyof SummaryEventData)[] };

export interface StreamOptions {
  /** Resume after this event id (sent as `Last-Event-ID`), e.g. the `id` of the last event a page saw. */
  lastEventId?: string;
  /** Stops reading; the iteration then ends quietly. */
  signal?: AbortSignal;
  /** How many times a dropped connection is resumed before the iteration fails (default 5). */
  reconnects?: number;
  /** The wait before resuming a dropped connection (default: the stream's `retry` field, else 1 s). */
  retryMs?: number;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
}

/** Where to read from: the options of `createBoardClient`. */
export type StreamTarget = BoardClientOptions;

/** A stream the service refused: its status and its RFC 9457 problem, when it sent one. */
export class StreamRefusedError extends Error {
  constructor(
    readonly status: number,
    readonly problem: unknown,
  ) {
    const detail =
      typeof problem === 'object' && problem !== null && 'detail' in problem ? `: ${String(problem.detail)}` : '';
    super(`the event stream was refused with status ${status}${detail}`);
    this.name = 'StreamRefusedError';
  }
}

/** The events of a session (`/v1/sessions/{id}/events`) until `session.complete`, `.failed` or `.cancelled`. */
export function readSessionEvents(
  target: StreamTarget,
  sessionId: string,
  options: StreamOptions = {},
): AsyncGenerator<SessionEvent> {
  return readStream<SessionEventData>(target, sessionId, 'events', options);
}

/** The live summary of a session (`/v1/sessions/{id}/summary`) until `summary.final`. */
export function readSessionSummary(
  target: StreamTarget,
  sessionId: string,
  options: StreamOptions = {},
): AsyncGenerator<SummaryEvent> {
  return readStream<SummaryEventData>(target, sessionId, 'summary', options);
}

/** The wait before resuming when the stream sent no `retry` field (WHATWG HTML leaves it to the client). */
const defaultRetryMs = 1000;

async function* readStream<Data>(
  target: StreamTarget,
  sessionId: string,
  stream: keyof typeof finalEvents,
  options: StreamOptions,
): AsyncGenerator<TypedEvent<Data>> {
  const url = `${target.baseUrl.replace(/\/+$/, '')}/v1/sessions/${encodeURIComponent(sessionId)}/${stream}`;
  const final: readonly string[] = finalEvents[stream];
  let lastEventId = options.lastEventId;
  let retryMs = defaultRetryMs;
  let reconnectsLeft = options.reconnects ?? 5;
  for (;;) {
    const response = await open(url, target, lastEventId, options);
    if (response === undefined) {
      return;
    }
    try {
      for await (const event of eventsOf(response.body, options.signal)) {
        retryMs = event.retry ?? retryMs;
        lastEventId = event.id ?? lastEventId;
        if (event.id === undefined || !eventNames[stream].has(event.event)) {
          // Another implementation may send events this contract version does not name: skipped, not fatal.
          continue;
        }
        yield { event: event.event, id: event.id, data: JSON.parse(event.data) as unknown } as TypedEvent<Data>;
        if (final.includes(event.event)) {
          return;
        }
      }
    } catch (error) {
      if (options.signal?.aborted === true) {
        return;
      }
      if (reconnectsLeft === 0) {
        throw error;
      }
    }
    // The connection ended before the final event: resume after the last event seen.
    if (reconnectsLeft === 0) {
      throw new Error(`the ${stream} stream of ${sessionId} ended before its final event`);
    }
    reconnectsLeft -= 1;
    await delay(options.retryMs ?? retryMs, options.signal);
  }
}

/** The names each stream's events may carry, checked against the contract's event unions. */
const eventNames = {
  events: new Set<string>([
    'synth.message',
    'round.complete',
    'session.complete',
    'session.failed',
    'session.cancelled',
  ] satisfies Schemas['SessionStreamEvent']['event'][]),
  summary: new Set<string>([
    'summary.update',
    'summary.final',
  ] satisfies Schemas['SessionSummaryStreamEvent']['event'][]),
};

/** Opens the stream; `undefined` once aborted. A refusal (4xx, 5xx) is thrown with its problem. */
async function open(
  url: string,
  target: StreamTarget,
  lastEventId: string | undefined,
  options: StreamOptions,
): Promise<(Response & { body: ReadableStream<Uint8Array> }) | undefined> {
  const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${target.apiKey}` };
  if (target.apiVersion !== undefined) {
    headers['X-Service-API-Version'] = target.apiVersion;
  }
  if (lastEventId !== undefined) {
    headers['Last-Event-ID'] = lastEventId;
  }
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      headers,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    if (options.signal?.aborted === true) {
      return undefined;
    }
    throw error;
  }
  if (!response.ok || response.body === null) {
    const text = await response.text();
    let problem: unknown = text;
    try {
      problem = JSON.parse(text);
    } catch {
      // Not JSON: the text itself is the best account of the refusal.
    }
    throw new StreamRefusedError(response.status, problem);
  }
  return response as Response & { body: ReadableStream<Uint8Array> };
}

/** The complete events of a byte stream as they arrive; an event cut off by the end is dropped (§9.2.6). */
async function* eventsOf(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
): AsyncGenerator<ParsedEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        return;
      }
      buffer += decoder.decode(value, { stream: true });
      // A CR at the end may be the first half of a CRLF: keep it for the next chunk.
      const held = buffer.endsWith('\r') ? 1 : 0;
      const text = buffer.slice(0, buffer.length - held).replace(/\r\n?/g, '\n');
      const end = text.lastIndexOf('\n\n');
      if (end === -1) {
        buffer = text + buffer.slice(buffer.length - held);
        continue;
      }
      buffer = text.slice(end + 2) + buffer.slice(buffer.length - held);
      yield* parseEventStream(text.slice(0, end + 2)).events;
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    cancel();
  }
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
