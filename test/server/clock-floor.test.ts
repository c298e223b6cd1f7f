/**
 * A sped-up clock across restarts (src/server/store/clock-floor.ts): a server started again on the same store,
 * after a clean stop or a crash, carries on from where its simulated time had got to instead of going
 * back to real time.
 */
import { expect, test } from 'vitest';
import { flooredScaledClock } from '../../src/server/store/clock-floor.js';
import { createStore } from '../../src/server/store/index.js';

test('after a clean stop, simulated time carries on from where it stopped', () => {
  const store = createStore(':memory:');
  const first = flooredScaledClock(store, 60);
  // An hour ahead of real time, as a sped-up clock gets after a minute.
  first.clock.advance(60 * 60_000);
  const reached = first.clock.now();
  expect(reached).toBeGreaterThan(Date.now() + 59 * 60_000);
  first.stop();
  const second = flooredScaledClock(store, 60);
  expect(second.clock.now()).toBeGreaterThanOrEqual(reached);
  second.stop();
  store.close();
});

test('after a crash (no stop), simulated time never goes back', () => {
  const store = createStore(':memory:');
  // Far faster than any test runs: a second of real time is weeks of simulated time.
  const scale = 1_000_000;
  const crashed = flooredScaledClock(store, scale);
  const lastSeen = crashed.clock.now();
  const restarted = flooredScaledClock(store, scale);
  expect(restarted.clock.now()).toBeGreaterThanOrEqual(lastSeen);
  // The floor is at most two real seconds of simulated time ahead: the jump is bounded.
  expect(restarted.clock.now() - lastSeen).toBeLessThanOrEqual(2 * 1_000 * scale + 1_000 * scale);
  crashed.stop();
  restarted.stop();
  store.close();
});

test('a jump forward is kept over a crash right after it, before the next periodic save', () => {
  const store = createStore(':memory:');
  const crashed = flooredScaledClock(store, 60);
  crashed.clock.advance(24 * 60 * 60_000);
  const jumpedTo = crashed.clock.now();
  const restarted = flooredScaledClock(store, 60);
  expect(restarted.clock.now()).toBeGreaterThanOrEqual(jumpedTo);
  crashed.stop();
  restarted.stop();
  store.close();
});

test('a store without a floor starts at real time', () => {
  const store = createStore(':memory:');
  const before = Date.now();
  const fresh = flooredScaledClock(store, 60);
  expect(fresh.clock.now()).toBeGreaterThanOrEqual(before);
  expect(fresh.clock.now()).toBeLessThan(before + 60_000 * 60);
  fresh.stop();
  store.close();
});
