/**
 * The event-stream text the mock serves: written from the contract's per-event objects and read back
 * by the WHATWG rules (HTML §9.2.6).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatEvent, isEventStreamEvent, parseEventStream } from '../../src/mock/eventStream.js';

describe('formatEvent', () => {
  test('writes the fields in order and ends the event with a blank line', () => {
    expect(formatEvent({ event: 'synth.message', id: '1', retry: 3000, data: '{"round":1}' })).toBe(
      'event: synth.message\nid: 1\nretry: 3000\ndata: {"round":1}\n\n',
    );
    expect(formatEvent({ event: 'round.complete', id: '5', data: '{}' })).toBe('event: round.complete\nid: 5\ndata: {}\n\n');
  });

  test('writes each line of a multi-line data as its own data field', () => {
    expect(formatEvent({ event: 'note', id: '2', data: 'a\nb' })).toBe('event: note\nid: 2\ndata: a\ndata: b\n\n');
  });
});

describe('parseEventStream', () => {
  test('skips comments, accepts CRLF and drops an unterminated last event', () => {
    const text = ': heartbeat\r\n\r\nevent: a\r\nid: 1\r\ndata: x\r\n\r\nevent: b\nid: 2\ndata: y';
    expect(parseEventStream(text)).toEqual([{ event: 'a', id: '1', data: 'x' }]);
  });

  test('an event without data is not dispatched, and a non-numeric retry is ignored', () => {
    expect(parseEventStream('event: a\nid: 1\n\nevent: b\nretry: soon\ndata: z\n\n')).toEqual([
      { event: 'b', id: '', data: 'z' },
    ]);
  });

  test('reads back every event it wrote', () => {
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
        expect(parseEventStream(events.map(formatEvent).join(': heartbeat\n\n'))).toEqual(events);
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
