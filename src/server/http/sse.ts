/**
 * Server-sent event streams on the wire: each event written as src/contract/sse.ts formats it (WHATWG
 * HTML §9.2.6), and while no event is due, a `: heartbeat` comment every interval so that proxies keep
 * the connection open (the contract's stream mechanics); the interval runs on the server clock.
 * @module
 */
import type { StreamBounds } from '../ports/app.js';
import { Readable } from 'node:stream';
import { formatEvent, type EventStreamEvent } from '../../contract/sse.js';
import { sleep } from '../core/clock.js';
import type { Clock } from '../ports/services.js';

export const heartbeatComment = ': heartbeat\n\n';

const heartbeatTick = Symbol('heartbeat');

/**
 * The text of a stream: every event of `events`, formatted, with heartbeats in the gaps. Ends when
 * `events` ends, `signal` aborts (the client went away), or `authorised` answers `false` before an event
 * or a heartbeat is written (the key that opened the stream was revoked or its rotation grace ended: a
 * stream must not outlive its key, seed "Authentication" 4).
 */
export async function* eventStreamText(
  events: AsyncIterable<EventStreamEvent>,
  options: {
    clock: Clock;
    heartbeatMs: number;
    signal: AbortSignal;
    onEvent?: (event: EventStreamEvent) => void;
    authorised?: () => boolean;
  },
): AsyncGenerator<string> {
  const iterator = events[Symbol.asyncIterator]();
  let pending = iterator.next();
  try {
    while (!options.signal.aborted) {
      const tick = new AbortController();
      const heartbeat = sleep(options.clock, options.heartbeatMs, AbortSignal.any([tick.signal, options.signal])).then(
        (): typeof heartbeatTick => heartbeatTick,
      );
      const next = await Promise.race([pending, heartbeat]);
      tick.abort();
      if (options.authorised?.() === false) {
        return;
      }
      if (next === heartbeatTick) {
        if (!options.signal.aborted) {
          yield heartbeatComment;
        }
        continue;
      }
      if (next.done === true) {
        return;
      }
      options.onEvent?.(next.value);
      yield formatEvent(next.value);
      pending = iterator.next();
    }
  } finally {
    // Not awaited: a `next()` may still be pending, and the source ends it itself once `signal` aborts.
    // Neither may surface later as an unhandled rejection once nobody reads the stream.
    pending.catch(() => undefined);
    iterator.return?.().catch(() => undefined);
  }
}

/**
 * The bytes of `text` as a stream to send on `response`. Events are taken from `text` while what the
 * reader has not taken yet (this stream's buffer and the response's) is within `maxBufferedBytes`; past it,
 * the stream waits for the reader, and a reader that does not catch up within `stallMs` is disconnected.
 * It resumes with `Last-Event-ID` where it stopped (the contract's stream mechanics), so a stalled reader
 * costs at most the limit and the kernel's socket buffers, and a burst (a replay from the first event)
 * reaches a reader that keeps up at the pace it reads.
 */
export function boundedStream(
  text: AsyncIterable<string>,
  response: { readonly writableLength: number; destroy(): void },
  bounds: StreamBounds,
): Readable {
  let wake: (() => void) | undefined;
  const out = new Readable({ read: () => wake?.() });
  out.once('close', () => wake?.());
  const buffered = (): number => out.readableLength + response.writableLength;

  async function caughtUp(): Promise<boolean> {
    const deadline = performance.now() + bounds.stallMs;
    while (buffered() > bounds.maxBufferedBytes) {
      const left = deadline - performance.now();
      if (left <= 0 || out.destroyed) {
        return false;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
    return true;
  }

  void (async () => {
    try {
      for await (const chunk of text) {
        if (out.destroyed) {
          return;
        }
        out.push(chunk);
        if (!(await caughtUp())) {
          response.destroy();
          out.destroy();
          return;
        }
      }
      out.push(null);
    } catch (error) {
      out.destroy(error as Error);
    }
  })();
  return out;
}
