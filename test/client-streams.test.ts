/**
 * The typed stream helpers of `boardkit/client` against the reference server over loopback: a run's
 * events and summary read to their final event with parsed, typed `data`; a dropped connection resumed
 * with `Last-Event-ID`, nothing lost or repeated; a refusal carried as its problem; and the JSON client
 * refusing the stream paths at compile time (checked by `tsc --noEmit`).
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import {
  createBoardClient,
  readSessionEvents,
  readSessionSummary,
  StreamRefusedError,
  type SessionEvent,
  type SummaryEvent,
} from '../src/client.js';
import type { components } from '../src/generated/openapi.js';
import {
  aWholeRun,
  advanceUntil,
  lineupStart,
  startSession,
  startTestServer,
  storedSession,
  type TestServer,
} from './server/harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

async function collect<Event>(events: AsyncIterable<Event>): Promise<Event[]> {
  const all: Event[] = [];
  for await (const event of events) {
    all.push(event);
  }
  return all;
}

/** A `fetch` whose first response body ends after its first complete event, as a dropped connection would. */
function droppingFetch(sent: Headers[]): typeof fetch {
  return async (input, init) => {
    sent.push(new Headers(init?.headers));
    const response = await fetch(input, init);
    if (sent.length > 1 || response.body === null) {
      return response;
    }
    const reader = response.body.getReader();
    let text = '';
    const cut = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        text += done ? '' : new TextDecoder().decode(value);
        const end = text.indexOf('\n\n');
        if (done || end !== -1) {
          controller.enqueue(new TextEncoder().encode(text.slice(0, end + 2)));
          controller.close();
          await reader.cancel();
        }
      },
    });
    return new Response(cut, { status: response.status, headers: response.headers });
  };
}

describe('readSessionEvents', () => {
  test('reads a run to session.complete, each data parsed and typed', async () => {
    const id = await startSession(server, lineupStart(2));
    const reading = collect(readSessionEvents({ baseUrl: server.baseUrl, apiKey: server.key }, id));
    server.clock.advance(aWholeRun);
    const events = await reading;
    expect(events.map((event) => event.id)).toEqual(events.map((_, index) => String(index + 1)));
    expect(events.at(-1)).toMatchObject({
      event: 'session.complete',
      data: { outcomes_url: `${server.baseUrl}/v1/sessions/${id}/outcomes` },
    });
    const rounds = events.flatMap((event) => (event.event === 'round.complete' ? [event.data.round] : []));
    expect(rounds).toEqual([1, 2]);
    expectTypeOf<Extract<SessionEvent, { event: 'synth.message' }>['data']>().toEqualTypeOf<
      components['schemas']['SynthMessageEventData']
    >();
  });

  test('a dropped connection resumes after the last event seen: nothing lost, nothing repeated', async () => {
    const id = await startSession(server, lineupStart(1));
    server.clock.advance(aWholeRun);
    const sent: Headers[] = [];
    const options = { fetch: droppingFetch(sent), retryMs: 0 };
    const events = await collect(readSessionEvents({ baseUrl: server.baseUrl, apiKey: server.key }, id, options));
    expect(events.map((event) => event.id)).toEqual(events.map((_, index) => String(index + 1)));
    expect(events.at(-1)?.event).toBe('session.complete');
    expect(sent.map((headers) => headers.get('last-event-id'))).toEqual([null, '1']);
  });

  test('lastEventId starts after a known event', async () => {
    const id = await startSession(server, lineupStart(1));
    server.clock.advance(aWholeRun);
    const events = await collect(
      readSessionEvents({ baseUrl: server.baseUrl, apiKey: server.key }, id, { lastEventId: '2' }),
    );
    expect(events[0]?.id).toBe('3');
    expect(events.at(-1)?.event).toBe('session.complete');
  });

  test('an unknown session is refused with its 404 problem', async () => {
    const reading = collect(
      readSessionEvents({ baseUrl: server.baseUrl, apiKey: server.key }, 'ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E'),
    );
    await expect(reading).rejects.toBeInstanceOf(StreamRefusedError);
    await expect(reading).rejects.toMatchObject({ status: 404, problem: { status: 404 } });
  });

  test('an abort ends the iteration quietly', async () => {
    const id = await startSession(server, lineupStart(3));
    advanceUntil(server, () => storedSession(server, id).current_round === 2);
    const controller = new AbortController();
    const seen: SessionEvent[] = [];
    for await (const event of readSessionEvents({ baseUrl: server.baseUrl, apiKey: server.key }, id, {
      signal: controller.signal,
    })) {
      seen.push(event);
      if (event.event === 'round.complete') {
        controller.abort();
      }
    }
    expect(seen.at(-1)?.event).toBe('round.complete');
    server.clock.advance(aWholeRun);
  });
});

describe('readSessionSummary', () => {
  test('reads a summary.update per round, then summary.final', async () => {
    const id = await startSession(server, lineupStart(2));
    server.clock.advance(aWholeRun);
    const events = await collect(readSessionSummary({ baseUrl: server.baseUrl, apiKey: server.key }, id));
    expect(events.map((event) => event.event)).toEqual(['summary.update', 'summary.update', 'summary.final']);
    expectTypeOf<SummaryEvent['data']>().toEqualTypeOf<components['schemas']['SummaryUpdateEventData']>();
  });
});

describe('the JSON client', () => {
  test('does not offer the event-stream paths, whose bodies are not JSON', () => {
    const board = createBoardClient({ baseUrl: server.baseUrl, apiKey: server.key });
    const read = (): unknown =>
      // @ts-expect-error the typed client leaves out the event streams: readSessionSummary reads them
      board.GET('/v1/sessions/{id}/summary', { params: { path: { id: 'ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E' } } });
    expect(read).toBeTypeOf('function');
  });
});
