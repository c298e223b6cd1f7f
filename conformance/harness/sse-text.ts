/**
 * Parses raw `text/event-stream` text into its events (WHATWG HTML §9.2.6 "Interpreting an event
 * stream"). The EventSource client delivers only the events a listener names; this parse sees everything
 * the server sent (unknown event names, `retry` fields, comments), which is what validation needs.
 * @module
 */

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
