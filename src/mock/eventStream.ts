/**
 * Server-sent events as text (WHATWG HTML §9.2.6 "Interpreting an event stream").
 *
 * The contract describes a `text/event-stream` response by one event at a time: an object of the SSE
 * fields `event`, `id`, optional `retry` and `data` (openapi/README.md, the SSE operations). Prism cannot
 * serialise such an object as text, so the mock serves the same events written out as the wire text, and
 * the tests read them back with `parseEventStream`.
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
  const lines = [`event: ${event.event}`, `id: ${event.id}`];
  if (event.retry !== undefined) {
    lines.push(`retry: ${event.retry}`);
  }
  // Each line of `data` is its own `data:` field; the reader joins them again with line feeds.
  lines.push(...event.data.split('\n').map((line) => `data: ${line}`));
  return `${lines.join('\n')}\n\n`;
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

/**
 * The events of a stream text, with the fields each one carried. Comment lines (`: heartbeat`) are
 * skipped; an event is dispatched at a blank line, and one without `data` is dropped (§9.2.6). Unlike an
 * EventSource, the fields are reported per event as sent (`id` and `retry` only where they appear), so a
 * test can compare them with the contract's per-event schema.
 */
export function parseEventStream(text: string): EventStreamEvent[] {
  const events: EventStreamEvent[] = [];
  let fields: Partial<EventStreamEvent> = {};
  let data: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data.length > 0) {
        const retry = fields.retry === undefined ? {} : { retry: fields.retry };
        events.push({ event: fields.event ?? 'message', id: fields.id ?? '', ...retry, data: data.join('\n') });
      }
      fields = {};
      data = [];
      continue;
    }
    if (line.startsWith(':')) {
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'data') {
      data.push(value);
    } else if (name === 'event' || name === 'id') {
      fields[name] = value;
    } else if (name === 'retry' && /^\d+$/.test(value)) {
      fields.retry = Number(value);
    }
  }
  return events;
}
