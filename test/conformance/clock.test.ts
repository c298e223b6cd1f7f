/**
 * The suite's view of a target's clock through the test-only control plane: reading it, jumping it
 * forward exactly, and, on a target that only lets the speed change, running it fast to the target time
 * without passing it by much; the normal speed is restored either way.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { controlledClock } from '../../conformance/harness/clock.js';
import { TestControl } from '../../conformance/harness/test-control.js';
import { scaledClock, type ScaledClock } from '../../src/server/core/clock.js';

const hour = 3_600_000;
let server: Server | undefined;

afterEach(() => {
  server?.close();
});

/** A control plane over `clock` on 127.0.0.1 that honours `advance_ms` only when told to. */
async function controlPlane(clock: ScaledClock, jumps: boolean): Promise<TestControl> {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.method === 'PUT') {
        const change = JSON.parse(body) as { time_scale?: number; advance_ms?: number };
        if (jumps && change.advance_ms !== undefined) {
          clock.advance(change.advance_ms);
        }
        if (change.time_scale !== undefined) {
          clock.setScale(change.time_scale);
        }
      }
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ now: new Date(clock.now()).toISOString(), time_scale: clock.scale() }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return new TestControl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, '/_test');
}

describe('controlledClock', () => {
  test('reads the scale, and jumps exactly when the target can jump', async () => {
    const clock = scaledClock(10);
    const target = await controlledClock(await controlPlane(clock, true));
    expect(target).toMatchObject({ known: true, controllable: true });
    expect(target.scale()).toBe(10);
    expect(target.realMs(5_000)).toBe(500);
    const fired: number[] = [];
    clock.setTimer(hour, () => fired.push(clock.now()));
    const before = await target.now();
    await target.elapse(23 * hour);
    const passed = (await target.now()) - before;
    expect(passed).toBeGreaterThanOrEqual(23 * hour);
    expect(passed).toBeLessThan(23 * hour + 60_000);
    // The jump arms the due timer for the next turn of the event loop, which two loopback requests can beat.
    await vi.waitFor(() => expect(fired.length).toBe(1), { timeout: 5_000 });
    expect(clock.scale()).toBe(10);
  });

  test('runs the clock fast to the target time when the target can only change speed', async () => {
    const clock = scaledClock(10);
    const target = await controlledClock(await controlPlane(clock, false));
    const before = await target.now();
    await target.elapse(2 * hour);
    const passed = (await target.now()) - before;
    expect(passed).toBeGreaterThanOrEqual(2 * hour);
    expect(passed).toBeLessThan(3 * hour);
    expect(clock.scale()).toBe(10);
  });

  test('withScale runs a task at another speed and restores the clock', async () => {
    const clock = scaledClock(250);
    const target = await controlledClock(await controlPlane(clock, true));
    const during = await target.withScale(1, async () => clock.scale());
    expect([during, clock.scale(), target.scale()]).toEqual([1, 250, 250]);
  });
});
