/**
 * The session's event streams (seed "Server-sent event stream of a session"; the contract's stream
 * mechanics), read with a real EventSource client and as raw text: ids from 1, `retry: 3000` on the
 * first event, resumption after `Last-Event-ID` with nothing lost or repeated, heartbeats while idle,
 * a clean end at the terminal event, and `finite=true`.
 */
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  aWholeRun,
  advanceUntil,
  lineupStart,
  startSession,
  startTestServer,
  storedSession,
  waitFor,
  type TestServer,
} from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

interface Received {
  event: string;
  id: string;
  data: Record<string, unknown>;
}

/** Reads a stream with EventSource until `last` arrives; `lastEventId` resumes after that id. */
function readWithEventSource(
  path: string,
  last: string,
  lastEventId?: string,
  onOpen?: () => void,
): Promise<Received[]> {
  return new Promise((resolve, reject) => {
    const received: Received[] = [];
    const source = new EventSource(`${server.baseUrl}${path}`, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: {
            ...(init?.headers as Record<string, string>),
            authorization: `Bearer ${server.key}`,
            ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
          },
        }),
    });
    const names = [
      'synth.message',
      'round.complete',
      'session.complete',
      'session.failed',
      'session.cancelled',
      'summary.update',
      'summary.final',
    ];
    for (const name of names) {
      source.addEventListener(name, (message) => {
        received.push({
          event: name,
          id: message.lastEventId,
          data: JSON.parse(message.data) as Record<string, unknown>,
        });
        if (name === last) {
          source.close();
          resolve(received);
        }
      });
    }
    source.addEventListener('open', () => onOpen?.());
    source.addEventListener('error', (error) => {
      if (source.readyState === EventSource.CLOSED) {
        reject(new Error(`the stream failed: ${String(error.message)}`));
      }
    });
  });
}

async function rawText(path: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await server.request(path, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return response.text();
}

describe('the events stream', () => {
  test('a live run arrives in order, ids from 1, and ends with session.complete', async () => {
    const id = await startSession(server, lineupStart(2));
    const opened = new Promise<void>((resolve) => {
      void readWithEventSource(`/v1/sessions/${id}/events`, 'session.complete', undefined, resolve).then((events) =>
        done(events),
      );
    });
    let done: (events: Received[]) => void = () => undefined;
    const finished = new Promise<Received[]>((resolve) => (done = resolve));
    await opened;
    server.clock.advance(aWholeRun);
    const events = await finished;
    expect(events.map((event) => event.id)).toEqual(events.map((_, index) => String(index + 1)));
    expect(events.filter((event) => event.event === 'round.complete').map((event) => event.data['round'])).toEqual([
      1, 2,
    ]);
    expect(events.at(-1)).toMatchObject({
      event: 'session.complete',
      data: { outcomes_url: `${server.baseUrl}/v1/sessions/${id}/outcomes` },
    });
    expect(events.filter((event) => event.event === 'synth.message')).toHaveLength(4);
  });

  test('the first event carries retry: 3000; a finished run replays and the response ends', async () => {
    const id = await startSession(server, lineupStart(1));
    server.clock.advance(aWholeRun);
    const text = await rawText(`/v1/sessions/${id}/events`);
    const blocks = text.trim().split('\n\n');
    expect(blocks[0]).toMatch(/^event: synth\.message\nid: 1\nretry: 3000\ndata: \{/);
    expect(blocks.filter((block) => block.includes('retry:'))).toHaveLength(1);
    expect(blocks.at(-1)).toMatch(/^event: session\.complete\nid: \d+\ndata: /);
  });

  test('Last-Event-ID resumes after that event: nothing lost, nothing repeated', async () => {
    const id = await startSession(server, lineupStart(2));
    advanceUntil(server, () => storedSession(server, id).current_round === 2);
    const firstPart = await rawText(`/v1/sessions/${id}/events?finite=true`);
    const seen = [...firstPart.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    expect(seen.length).toBeGreaterThan(0);
    server.clock.advance(aWholeRun);
    const rest = await readWithEventSource(`/v1/sessions/${id}/events`, 'session.complete', String(seen.at(-1)));
    const all = [...seen, ...rest.map((event) => Number(event.id))];
    expect(all).toEqual(all.map((_, index) => index + 1));
    expect(rest[0]?.id).toBe(String((seen.at(-1) ?? 0) + 1));
  });

  test('an id beyond the last event waits for the next new one; a non-decimal id is a 400', async () => {
    const id = await startSession(server, lineupStart(1));
    server.clock.advance(aWholeRun);
    expect(await rawText(`/v1/sessions/${id}/events`, { 'last-event-id': '9999' })).toBe('');
    const response = await server.request(`/v1/sessions/${id}/events`, { headers: { 'last-event-id': 'abc' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: Array<{ pointer: string }> }).errors[0]?.pointer).toBe(
      '#/header/Last-Event-ID',
    );
  });

  test('finite=true sends what is recorded and closes while the run goes on', async () => {
    const id = await startSession(server, lineupStart(3));
    advanceUntil(server, () => storedSession(server, id).v4_phase === 'debating');
    const text = await rawText(`/v1/sessions/${id}/events?finite=true`);
    expect(text).toMatch(/^event: synth\.message\nid: 1\nretry: 3000\n/);
    expect(text).not.toContain('session.complete');
  });

  test('an idle stream gets a heartbeat comment every 15 seconds of server time', async () => {
    // A server of its own, so that the only timer on its clock is the stream's heartbeat.
    const quiet = await startTestServer();
    try {
      await heartbeats(quiet);
    } finally {
      await quiet.stop();
    }
  });

  async function heartbeats(server: TestServer): Promise<void> {
    const started = await server.request('/v1/sessions', {
      method: 'POST',
      json: { question: 'How do we price the EU plan?', session_type: 'consult', synth_id: 'cfo' },
    });
    const { session_id: id } = (await started.json()) as { session_id: string };
    const response = await server.request(`/v1/sessions/${id}/events`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (let beat = 1; beat <= 2; beat += 1) {
      // The stream is idle once its heartbeat timer is on the clock.
      await waitFor(() => server.clock.pending() === 1);
      server.clock.advance(14_999);
      expect(text).toBe(': heartbeat\n\n'.repeat(beat - 1));
      server.clock.advance(1);
      while (text.split(': heartbeat\n\n').length - 1 < beat) {
        const chunk = await reader.read();
        text += decoder.decode(chunk.value);
      }
    }
    expect(text).toBe(': heartbeat\n\n: heartbeat\n\n');
    // Cancelling ends the stream with its terminal event.
    await (await server.request(`/v1/sessions/${id}/cancel`, { method: 'POST' })).arrayBuffer();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value);
    }
    expect(text).toMatch(
      /event: session\.cancelled\nid: 1\nretry: 3000\ndata: \{"credits_charged":0,"credits_refunded":0\}\n\n$/,
    );
  }

  test('a follow-up run continues the same id counter on a new connection', async () => {
    const id = await startSession(server, lineupStart(1));
    server.clock.advance(aWholeRun);
    const first = await rawText(`/v1/sessions/${id}/events`);
    const lastId = Number([...first.matchAll(/^id: (\d+)$/gm)].at(-1)?.[1]);
    await (await server.request(`/v1/sessions/${id}/continue`, { method: 'POST' })).arrayBuffer();
    server.clock.advance(aWholeRun);
    const next = await readWithEventSource(`/v1/sessions/${id}/events`, 'session.complete', String(lastId));
    expect(next[0]?.id).toBe(String(lastId + 1));
    expect(next.filter((event) => event.event === 'round.complete').map((event) => event.data['round'])).toEqual([2]);
  });
});

describe('the summary stream', () => {
  test('a summary.update per round and a summary.final, then the stream ends', async () => {
    const id = await startSession(server, lineupStart(2));
    server.clock.advance(aWholeRun);
    const events = await readWithEventSource(`/v1/sessions/${id}/summary`, 'summary.final');
    expect(events.map((event) => [event.id, event.event])).toEqual([
      ['1', 'summary.update'],
      ['2', 'summary.update'],
      ['3', 'summary.final'],
    ]);
    expect(events[0]?.data).toMatchObject({
      round: 1,
      consensus_0_100: expect.any(Number),
      open_questions: expect.any(Array),
    });
    expect(events[0]?.data['updated_at']).toEqual(expect.any(String));
  });

  test('a cancelled run gets a summary.final on what was debated', async () => {
    const id = await startSession(server, lineupStart(3));
    advanceUntil(server, () => storedSession(server, id).current_round === 2);
    await (await server.request(`/v1/sessions/${id}/cancel`, { method: 'POST' })).arrayBuffer();
    const text = await rawText(`/v1/sessions/${id}/summary`);
    expect([...text.matchAll(/^event: (\S+)$/gm)].map((match) => match[1])).toEqual([
      'summary.update',
      'summary.final',
    ]);
  });
});
