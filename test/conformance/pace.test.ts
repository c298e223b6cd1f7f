/**
 * The target's pace: waits on its replies grow with its measured latency, never shrink below their floor,
 * and never outlast the run's deadline; the real-time budget for a target's own schedule is bounded by it.
 */
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../conformance/harness/exchange.js';
import { measurePace } from '../../conformance/harness/pace.js';

/** Discovery exchanges that took `durations` ms each; one without an answer, which does not count. */
function exchanges(durations: number[]): Exchange[] {
  const answered = durations.map(
    (durationMs, id) =>
      ({
        id,
        check: 'discovery',
        request: {},
        response: { status: 200 },
        startedAt: 0,
        durationMs,
      }) as unknown as Exchange,
  );
  return [...answered, { id: 99, check: 'discovery', request: {}, startedAt: 0, durationMs: 10_000 } as Exchange];
}

const hour = 3_600_000;

describe('the pace of a target', () => {
  test('is the median latency of the answered discovery requests', () => {
    expect(measurePace(exchanges([5, 400, 60, 70, 65]), Date.now() + hour).latencyMs).toBe(65);
    expect(measurePace(exchanges([60, 70]), Date.now() + hour).latencyMs).toBe(65);
  });

  test('stretches a wait by round trips of the target, from its floor', () => {
    const slow = measurePace(exchanges([65]), Date.now() + hour);
    const fast = measurePace(exchanges([1]), Date.now() + hour);
    expect(slow.wait(15_000)).toBe(15_000 + 20 * 65);
    expect(slow.wait(5_000, 100)).toBe(5_000 + 100 * 65);
    expect(fast.wait(15_000)).toBe(15_020);
  });

  test("never outlasts the run's deadline", () => {
    const ending = measurePace(exchanges([65]), Date.now() + 2_000);
    expect(ending.wait(15_000)).toBeLessThanOrEqual(2_000);
    expect(ending.allows(1_000)).toBe(false);
    expect(ending.scheduleBudgetMs()).toBe(0);
  });

  test('bounds the real-time budget by what is left of the run', () => {
    expect(measurePace(exchanges([1]), Date.now() + hour).scheduleBudgetMs()).toBe(30_000);
    const long = measurePace(exchanges([1]), Date.now() + 2 * hour, 3 * hour);
    expect(long.scheduleBudgetMs()).toBeLessThanOrEqual(2 * hour - 60_000);
    expect(long.scheduleBudgetMs()).toBeGreaterThan(2 * hour - 70_000);
  });
});
