/**
 * Event-stream text (WHATWG HTML §9.2.6): written from the contract's per-event objects, as the mock and
 * the server send it, and read back as the conformance suite and the tests read it.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatEvent, isEventStreamEvent, parseEventStream } from '../../src/contract/sse.js';

describe('formatEvent', () => {
  test('writes the fields in order and ends the event with a blank line', () => {
    expect(formatEvent({ event: 'synth.message', id: '1', retry: 3000, data: '{"round":1}' })).toBe(
      'event: synth.message\nid: 1\nretry: 3000\ndata: {"round":1}\n\n',
    );
    expect(formatEvent({ event: 'round.complete', id: '5', data: '{}' })).toBe(
      'event: round.complete\nid: 5\ndata: {}\n\n',
    );
  });

  test('writes each line of a multi-line data as its own data field', () => {
    expect(formatEvent({ event: 'note', id: '2', data: 'a\nb' })).toBe('event: note\nid: 2\ndata: a\ndata: b\n\n');
  });
});

describe('parseEventStream', () => {
  test('reads fields, multi-line data, comments, CRLF and a cut last event', () => {
    const parsed = parseEventStream(
      'retry: 3000\r\nid: 1\r\nevent: synth.message\r\ndata: {"a":\r\ndata: 1}\r\n\r\n: heartbeat\n\nid: 2\ndata:x\n\nid: 3\nevent: round.complete\ndata: {"round"',
    );
    expect(parsed.events).toEqual([
      { event: 'synth.message', id: '1', retry: 3000, data: '{"a":\n1}' },
      { event: 'message', id: '2', data: 'x' },
    ]);
    expect(parsed.comments).toEqual(['heartbeat']);
    expect(parsed.incomplete).toBe('id: 3\nevent: round.complete\ndata: {"round"');
  });

  test('an event without data is not dispatched, and a non-numeric retry is ignored', () => {
    expect(parseEventStream('event: a\nid: 1\n\nevent: b\nretry: soon\ndata: z\n\n').events).toEqual([
      { event: 'b', data: 'z' },
    ]);
  });

  test('reads back every event formatEvent wrote', () => {
    const line = fc.string({ unit: fc.constantFrom(...'abc {}":,.0123456789é') });
    const event = fc.record(
      {
        event: fc.stringMatching(/^[a-z]{1,8}(\.[a-z]{1,8})?$/),
        id: fc.stringMatching(/^[1-9][0-9]{0,5}$/),
        retry: fc.integer({ min: 0, max: 600_000 }),
        data: fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n')),
      },
      { requiredKeys: ['event', 'id', 'data'] },
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 5 }), (events) => {
        expect(parseEventStream(events.map(formatEvent).join(': heartbeat\n\n')).events).toEqual(events);
      }),
    );
  });
});

test('isEventStreamEvent accepts the contract shape only', () => {
  expect(isEventStreamEvent({ event: 'a', id: '1', data: '{}' })).toBe(true);
  expect(isEventStreamEvent({ event: 'a', id: 1, data: '{}' })).toBe(false);
  expect(isEventStreamEvent({ event: 'a', id: '1', data: {} })).toBe(false);
  expect(isEventStreamEvent({ event: 'a', id: '1', retry: '3000', data: '{}' })).toBe(false);
  expect(isEventStreamEvent('event: a')).toBe(false);
});
