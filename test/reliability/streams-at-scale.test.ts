/**
 * Streams at scale (docs/reliability.md "Streams at scale"): 1,000 EventSource clients on one session's
 * event stream and 1,000 long polls on the session, against one server. Every stream client receives every
 * event of the run, in order, with its id; every long poll is answered by the change it waits for (the
 * `wait_ms` description), not by its timeout. The memory each open connection costs is reported (figures in
 * docs/reliability.md); clients and server share this process, so the figure bounds the server's share from
 * above.
 */
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  advanceUntil,
  lineupStart,
  startSession,
  startTestServer,
  storedSession,
  waitFor,
  type TestServer,
} from '../server/harness.js';
import { heapAfterCollection } from './heap.js';

const clients = 1_000;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

/** Heap, not RSS: RSS moves in steps too coarse to divide by 1,000. */
function perConnection(before: number, after: number): string {
  return `${((after - before) / clients / 1024).toFixed(1)} KiB of heap per connection (client and server)`;
}

const eventNames = ['synth.message', 'round.complete', 'session.complete'];

/** Opens an EventSource on the session's events; resolves with `id event` of each event up to the end. */
function follow(sessionId: string, onOpen: () => void): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const seen: string[] = [];
    const source = new EventSource(`${server.baseUrl}/v1/sessions/${sessionId}/events`, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${server.key}` },
        }),
    });
    for (const name of eventNames) {
      source.addEventListener(name, (message) => {
        seen.push(`${message.lastEventId} ${name}`);
        if (name === 'session.complete') {
          source.close();
          resolve(seen);
        }
      });
    }
    source.addEventListener('open', onOpen, { once: true });
    source.addEventListener('error', (error) => {
      if (source.readyState === EventSource.CLOSED) {
        reject(new Error(`a stream failed: ${String(error.message)}`));
      }
    });
  });
}

test('1,000 EventSource clients each receive every event of a run', async () => {
  const id = await startSession(server, lineupStart(2, { title: 'A thousand watchers' }));
  const before = heapAfterCollection();
  let opened = 0;
  const streams = Array.from({ length: clients }, () => follow(id, () => (opened += 1)));
  await waitFor(() => opened === clients, 60_000);
  const open = heapAfterCollection();

  advanceUntil(server, () => storedSession(server, id).status === 'complete');
  const received = await Promise.all(streams);

  const recorded = await (await server.request(`/v1/sessions/${id}/events?finite=true`)).text();
  const expected = [...recorded.matchAll(/^event: (.+)\nid: (\d+)$/gm)].map((match) => `${match[2]} ${match[1]}`);
  expect(expected.length).toBeGreaterThan(4);
  expect(expected.at(-1)).toMatch(/ session\.complete$/);
  const distinct = new Set(received.map((events) => events.join('\n')));
  expect([...distinct]).toEqual([expected.join('\n')]);
  console.log(`${clients} EventSource clients, ${expected.length} events each: ${perConnection(before, open)}`);
});

test('1,000 long polls are all answered by the change they wait for', async () => {
  const id = await startSession(server, lineupStart(1, { title: 'A thousand pollers' }));
  const initial = storedSession(server, id);
  const before = heapAfterCollection();
  const timers = server.wallClock.pending();
  const polls = Array.from({ length: clients }, async () => {
    const response = await server.request(`/v1/sessions/${id}?wait_ms=60000`);
    expect(response.status).toBe(200);
    return (await response.json()) as { status: string; v4_phase: string; current_round: number };
  });
  // Each poll waits on a timer of the server's wall clock: all of them are waiting once there are 1,000 more.
  await waitFor(() => server.wallClock.pending() >= timers + clients, 60_000);
  const waiting = heapAfterCollection();
  const startedAt = server.clock.now();

  // The first change of status, phase or round answers every poll, long before their 60 s are up.
  const progress = (session: typeof initial): string =>
    `${session.status}/${session.v4_phase}/${session.current_round}`;
  advanceUntil(server, () => progress(storedSession(server, id)) !== progress(initial), 100);
  const changedAt = server.clock.now();
  const answers = await Promise.all(polls);
  expect(changedAt - startedAt).toBeLessThan(60_000);
  const distinct = new Set(answers.map((answer) => progress(answer as typeof initial)));
  expect(distinct).toEqual(new Set([progress(storedSession(server, id))]));
  expect([...distinct][0]).not.toBe(progress(initial));
  console.log(`${clients} long polls: ${perConnection(before, waiting)}`);
});
