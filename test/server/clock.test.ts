/** The server clock: a manual clock for tests and real time sped up by `--time-scale`. */
import { describe, expect, test } from 'vitest';
import { manualClock, scaledClock, sleep } from '../../src/server/core/clock.js';

describe('manual clock', () => {
  test('timers fire in due order as time is advanced past them, each at its own time', () => {
    const clock = manualClock(1_000);
    const fired: Array<[string, number]> = [];
    clock.setTimer(300, () => fired.push(['b', clock.now()]));
    clock.setTimer(100, () => {
      fired.push(['a', clock.now()]);
      clock.setTimer(50, () => fired.push(['a+50', clock.now()]));
    });
    const cancelled = clock.setTimer(200, () => fired.push(['cancelled', clock.now()]));
    cancelled.cancel();
    clock.advance(250);
    expect(fired).toEqual([
      ['a', 1_100],
      ['a+50', 1_150],
    ]);
    expect(clock.now()).toBe(1_250);
    clock.advance(50);
    expect(fired.at(-1)).toEqual(['b', 1_300]);
    expect(clock.pending()).toBe(0);
  });

  test('sleep resolves when the time has passed, or at once when aborted', async () => {
    const clock = manualClock(0);
    let woke = false;
    const nap = sleep(clock, 1_000).then(() => (woke = true));
    clock.advance(999);
    await Promise.resolve();
    expect(woke).toBe(false);
    clock.advance(1);
    await nap;
    expect(woke).toBe(true);
    const controller = new AbortController();
    const aborted = sleep(clock, 60_000, controller.signal);
    controller.abort();
    await aborted;
    expect(clock.pending()).toBe(0);
  });
});

describe('scaled clock', () => {
  test('simulated time runs `scale` times faster than the real time it is given', () => {
    let real = 10_000;
    const clock = scaledClock(60, () => real);
    expect(clock.now()).toBe(10_000);
    real += 1_000;
    expect(clock.now()).toBe(10_000 + 60_000);
  });

  test('a timer of d simulated milliseconds waits d / scale real ones', async () => {
    const clock = scaledClock(1_000);
    const started = clock.now();
    await sleep(clock, 5_000);
    expect(clock.now() - started).toBeGreaterThanOrEqual(5_000);
  });

  test('the scale must be positive', () => {
    expect(() => scaledClock(0)).toThrow(/positive/);
    expect(() => scaledClock(2).setScale(-1)).toThrow(/positive/);
  });

  test('timers fire in due order, none before its simulated due time', async () => {
    const clock = scaledClock(100);
    const started = clock.now();
    const fired: Array<[string, number]> = [];
    await new Promise<void>((resolve) => {
      clock.setTimer(3_000, () => {
        fired.push(['c', clock.now() - started]);
        resolve();
      });
      clock.setTimer(1_000, () => fired.push(['a', clock.now() - started]));
      clock.setTimer(2_000, () => fired.push(['b', clock.now() - started]));
      clock.setTimer(2_500, () => fired.push(['cancelled', clock.now() - started])).cancel();
    });
    expect(fired.map(([name]) => name)).toEqual(['a', 'b', 'c']);
    fired.forEach(([, at], index) => expect(at).toBeGreaterThanOrEqual((index + 1) * 1_000));
  });

  test('a new speed goes on from the simulated time reached', () => {
    let real = 50_000;
    const clock = scaledClock(10, () => real);
    real += 100;
    expect(clock.now()).toBe(51_000);
    clock.setScale(1_000);
    expect([clock.now(), clock.scale()]).toEqual([51_000, 1_000]);
    real += 1;
    expect(clock.now()).toBe(52_000);
  });

  test('advance jumps forward: the timers it passes fire at once in due order, later ones keep waiting', async () => {
    const hour = 3_600_000;
    const clock = scaledClock(1);
    const started = clock.now();
    const fired: string[] = [];
    const passed = new Promise<void>((resolve) => {
      clock.setTimer(3 * hour, () => {
        fired.push('3 h');
        resolve();
      });
      clock.setTimer(1 * hour, () => fired.push('1 h'));
      clock.setTimer(2 * hour, () => fired.push('2 h'));
    });
    const later = new Promise<void>((resolve) => clock.setTimer(5 * hour, resolve));
    clock.advance(4 * hour);
    expect(clock.now() - started).toBeGreaterThanOrEqual(4 * hour);
    await passed;
    expect(fired).toEqual(['1 h', '2 h', '3 h']);
    // The last hour passes in well under a millisecond at this speed.
    clock.setScale(1e8);
    await later;
    expect(clock.now() - started).toBeGreaterThanOrEqual(5 * hour);
  });
});
