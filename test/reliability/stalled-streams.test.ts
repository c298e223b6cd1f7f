/**
 * Stalled stream readers are bounded (docs/reliability.md "Stalled streams"). A stalled reader is a Python
 * client that reads its response head and then nothing, with a 4 KiB receive buffer (Node cannot size
 * one). On loopback the kernel still takes about 2.7 MiB into the server's socket send buffer before the
 * server's own buffer fills (Linux sizes it, up to `net.ipv4.tcp_wmem`), so the test has two parts:
 *
 * - 200 stalled readers while the session records 1 MiB of events: the kernel holds it; the server's heap
 *   grows by little per reader, and none is disconnected;
 * - 4 stalled readers while it records 4 MiB more: past the kernel, each is a buffer (64 KiB) behind, and
 *   is disconnected once it has been behind for the stall time (one second here, 30 s by default); it
 *   resumes with `Last-Event-ID` where it stopped.
 *
 * Throughout, a reader that keeps up gets every event, in order, and stays connected.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import {
  advanceUntil,
  lineupStart,
  startSession,
  startTestServer,
  waitFor,
  type TestServer,
} from '../server/harness.js';
import { heapAfterCollection } from './heap.js';

const bounds = { maxBufferedBytes: 64 * 1024, stallMs: 1_000 };
const script = fileURLToPath(new URL('./clients/stalled_readers.py', import.meta.url));
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) {
    await stop();
  }
});

interface Verdict {
  closed: number;
  open: number;
  last_ids: number[];
}

/**
 * `count` stalled readers in a child process, once every stream is open; `check()` reads what each holds
 * and closes them, `close()` closes them unread.
 */
async function stalledReaders(
  server: TestServer,
  path: string,
  count: number,
): Promise<{ check(): Promise<Verdict>; close(): void }> {
  const url = new URL(server.baseUrl);
  const child = spawn('python3', [script, url.hostname, url.port, path, server.key, String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  stops.push(async () => {
    child.kill();
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  expect((await lines.next()).value).toBe('ready');
  return {
    async check() {
      child.stdin.write('check\n');
      return JSON.parse(String((await lines.next()).value)) as Verdict;
    },
    close: () => child.kill(),
  };
}

const idsIn = (text: string): number[] => [...text.matchAll(/^id: (\d+)$/gmu)].map((match) => Number(match[1]));

test('stalled stream readers cost the server little, and one a buffer behind for the stall time is disconnected', async () => {
  const server = await startTestServer({ clientLimits: { stream: bounds } });
  stops.push(() => server.stop());
  const { store, changes } = server.server.services;
  const connections = (): Promise<number> =>
    new Promise((resolve, reject) =>
      server.server.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  const sessionId = await startSession(server, lineupStart(2));
  const recorded = () => store.streamEvents.after(sessionId, 'events', 0);
  advanceUntil(server, () => recorded().some((event) => event.event === 'synth.message'), 100);
  const message = recorded().find((event) => event.event === 'synth.message');
  // Long messages (4 KiB of content), so that few events make the volume.
  const data = {
    ...(JSON.parse(String(message?.data)) as Record<string, unknown>),
    content: 'Margins hold. '.repeat(290),
  };
  const eventBytes = JSON.stringify(data).length;
  const path = `/v1/sessions/${sessionId}/events`;

  const keepsUp = await server.request(path);
  const reader = (keepsUp.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  const reading = (async () => {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      text += new TextDecoder().decode(read.value);
    }
  })();
  // Awaited at the end; a failure before then must not leave its rejection unhandled.
  reading.catch(() => undefined);
  /** Records `bytes` of events as a run would (stored, then the streams told), until the reader has them all. */
  async function record(bytes: number): Promise<number> {
    for (let n = 0; n < Math.ceil(bytes / eventBytes); n += 1) {
      store.streamEvents.append(sessionId, 'events', 'synth.message', data, server.clock.now());
      changes.notify(sessionId);
      if (n % 8 === 7) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    const last = store.streamEvents.lastSeq(sessionId, 'events');
    await waitFor(() => text.includes(`id: ${last}\n`), 20_000);
    return last;
  }

  // 200 stalled readers, 1 MiB of events. The connections counted apart from them: the reader that keeps
  // up, and any the test's own requests keep alive.
  const others = await connections();
  const before = heapAfterCollection();
  const many = await stalledReaders(server, path, 200);
  const opened = heapAfterCollection();
  await record(1024 * 1024);
  const filled = heapAfterCollection();
  console.log(
    `stalled streams: 200 readers cost ${((opened - before) / 200 / 1024).toFixed(1)} KiB of heap each when open, ` +
      `${((filled - opened) / 200 / 1024).toFixed(1)} KiB more each after 1 MiB of events (${eventBytes} bytes each) that they did not read`,
  );
  // None is disconnected: the kernel holds what they did not read. The server holds less than a buffer each.
  // (An idle connection the test's fetches kept alive may still be counted, or may have closed.)
  expect(await connections()).toBeGreaterThanOrEqual(200 + 1);
  expect((filled - opened) / 200).toBeLessThan(bounds.maxBufferedBytes);
  many.close();
  for (let open = await connections(); open > others; open = await connections()) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  // 4 stalled readers, 4 MiB more: past the kernel's buffers, they are disconnected.
  const few = await stalledReaders(server, path, 4);
  const startedAt = store.streamEvents.lastSeq(sessionId, 'events');
  const last = await record(4 * 1024 * 1024);
  for (let open = await connections(); open > others; open = await connections()) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const fewVerdict = await few.check();
  console.log(
    `stalled streams: 4 readers disconnected after events ${fewVerdict.last_ids.join(', ')} of ${startedAt + 1} to ${last}`,
  );
  expect(fewVerdict).toMatchObject({ closed: 4, open: 0 });
  expect(Math.max(...fewVerdict.last_ids)).toBeLessThan(last - bounds.maxBufferedBytes / eventBytes);

  // The reader that kept up got every event, in order, and is still connected.
  expect(idsIn(text)).toEqual(Array.from({ length: last }, (_, index) => index + 1));
  // A disconnected reader resumes where it stopped.
  const resumeAfter = fewVerdict.last_ids[0] ?? 0;
  const resumed = idsIn(
    await (await server.request(`${path}?finite=true`, { headers: { 'Last-Event-ID': String(resumeAfter) } })).text(),
  );
  expect([resumed[0], resumed.at(-1)]).toEqual([resumeAfter + 1, last]);
  await reader.cancel();
  await reading;
}, 120_000);
