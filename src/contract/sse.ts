/**
 * Server-sent events as text (WHATWG HTML §9.2.6 "Interpreting an event stream"). The contract describes
 * a `text/event-stream` response one event at a time, an object of the SSE fields `event`, `id`, optional
 * `retry` and `data` (openapi/README.md, the SSE operations); the mock and the server write those objects
 * as the wire text with `formatEvent`, and the conformance suite and the tests read it with
 * `parseEventStream`.
 * @module
 */

/** One event as the contract's per-event schemas describe it. */
export interface EventStreamEvent {
  event: string;
  id: string;
  retry?: number;
  data: string;
}

/** The wire text of one event: its field lines in the contract's order, ended by a blank line. */
export function formatEvent(event: EventStreamEvent): string {
  const retry = event.retry === undefined ? '' : `retry: ${event.retry}\n`;
  // Each line of `data` is its own `data:` field; the reader joins them again with line feeds.
  const data = event.data
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('');
  return `event: ${event.event}\nid: ${event.id}\n${retry}${data}\n`;
}

/** Whether a value has the shape of an `EventStreamEvent` (the contract's examples are checked by Ajv). */
export function isEventStreamEvent(value: unknown): value is EventStreamEvent {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const fields = value as Record<string, unknown>;
  return (
    typeof fields['event'] === 'string' &&
    typeof fields['id'] === 'string' &&
    typeof fields['data'] === 'string' &&
    (fields['retry'] === undefined || typeof fields['retry'] === 'number')
  );
}

/** One event as the fields its block carried; `event` defaults to `message`. */
export interface ParsedEvent {
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

export interface ParsedStream {
  events: ParsedEvent[];
  /** Comment lines (`: heartbeat`), without the colon. */
  comments: string[];
  /** Text after the last blank line: an event the stream cut before it was complete. */
  incomplete: string;
}

/**
 * Everything a stream text holds. Unlike an EventSource, which delivers only the events a listener names,
 * this sees what the server sent (unknown event names, `retry` fields, comments), and reports `id` and
 * `retry` per event only where they appear, so each event can be compared with its schema.
 */
export function parseEventStream(text: string): ParsedStream {
  const events: ParsedEvent[] = [];
  const comments: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  // A final line without its terminator is not a line yet (§9.2.6: lines end with a line break).
  const unterminated = lines.pop() ?? '';
  let fields: Partial<ParsedEvent> & { dataLines?: string[] } = {};
  let pending: string[] = [];
  for (const line of lines) {
    if (line === '') {
      if (fields.dataLines !== undefined) {
        const { dataLines, ...rest } = fields;
        events.push({ ...rest, event: rest.event ?? 'message', data: dataLines.join('\n') });
      }
      fields = {};
      pending = [];
      continue;
    }
    pending.push(line);
    if (line.startsWith(':')) {
      comments.push(line.slice(1).trimStart());
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'data') {
      fields.dataLines = [...(fields.dataLines ?? []), value];
    } else if (name === 'event') {
      fields.event = value;
    } else if (name === 'id' && !value.includes('\0')) {
      fields.id = value;
    } else if (name === 'retry' && /^\d+$/.test(value)) {
      fields.retry = Number(value);
    }
  }
  return { events, comments, incomplete: [...pending, unterminated].filter((line) => line !== '').join('\n') };
}
