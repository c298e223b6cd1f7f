/**
 * Server-sent events on the wire (WHATWG HTML §9.2.6 "Interpreting an event stream"): each event is an
 * `event:` line, an `id:` line, an optional `retry:` line and one `data:` line, ended by a blank line.
 * While no event is due, a `: heartbeat` comment is written every interval so that proxies keep the
 * connection open (the contract's stream mechanics); the interval runs on the server clock.
 * @module
 */
import { sleep, type Clock } from './clock.js';

export interface StreamEvent {
  event: string;
  id: string;
  retry?: number;
  data: string;
}

export function formatEvent(event: StreamEvent): string {
  const retry = event.retry === undefined ? '' : `retry: ${event.retry}\n`;
  // `data` is one line of JSON; JSON.stringify never writes a raw line break.
  return `event: ${event.event}\nid: ${event.id}\n${retry}data: ${event.data}\n\n`;
}

export const heartbeatComment = ': heartbeat\n\n';

const heartbeatTick = Symbol('heartbeat');

/**
 * The text of a stream: every event of `events`, formatted, with heartbeats in the gaps. Ends when
 * `events` ends or `signal` aborts (the client went away).
 */
export async function* eventStreamText(
  events: AsyncIterable<StreamEvent>,
  options: { clock: Clock; heartbeatMs: number; signal: AbortSignal; onEvent?: (event: StreamEvent) => void },
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
    void iterator.return?.();
  }
}
