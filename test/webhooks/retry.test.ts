import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { valueAt } from '../../src/contract/pointer.js';
import { createContractValidator } from '../../src/contract/validator.js';
import { isExhausted, nextAttemptAt, parseRetrySchedule, retrySchedules } from '../../src/webhooks/retry.js';

const contract = loadContract();
const validator = createContractValidator(contract);
const minute = 60_000;

describe('the published schedules', () => {
  test('are the x-webhook-delivery variants and the RetrySchedule branches, in order', () => {
    const variants = valueAt(contract, '#/x-webhook-delivery/retry_schedule_variants') as Array<
      Record<string, unknown>
    >;
    const stated = variants.map(({ waits_minutes, max_attempts, span_minutes }) => ({
      waits_minutes,
      max_attempts,
      span_minutes,
    }));
    expect(stated).toEqual([retrySchedules.fourWaits, retrySchedules.fiveWaits]);
    const schema = (name: string) => `#/components/schemas/${name}`;
    expect(validator.validate(schema('RetryScheduleFourWaits'), retrySchedules.fourWaits).errors).toEqual([]);
    expect(validator.validate(schema('RetryScheduleFiveWaits'), retrySchedules.fiveWaits).errors).toEqual([]);
  });

  test.each(Object.entries(retrySchedules))('%s: one attempt more than waits, spanning their sum', (_, schedule) => {
    expect(schedule.max_attempts).toBe(schedule.waits_minutes.length + 1);
    expect(schedule.span_minutes).toBe(schedule.waits_minutes.reduce((sum, wait) => sum + wait, 0));
  });
});

describe('nextAttemptAt', () => {
  const start = Date.UTC(2026, 10, 20, 9, 19, 55, 214);

  test.each([
    ['fourWaits', [1, 6, 21, 81]],
    ['fiveWaits', [1, 6, 21, 81, 321]],
  ] as const)('%s: attempts fall due at %j minutes, then none', (name, offsets) => {
    const schedule = retrySchedules[name];
    let at = start;
    const due: number[] = [];
    for (let attempt = 1; ; attempt += 1) {
      const next = nextAttemptAt(schedule, attempt, at);
      if (next === null) {
        expect(attempt).toBe(schedule.max_attempts);
        expect(isExhausted(schedule, attempt)).toBe(true);
        break;
      }
      expect(isExhausted(schedule, attempt)).toBe(false);
      due.push((next - start) / minute);
      at = next;
    }
    expect(due).toEqual(offsets);
  });

  test('counts each wait from the start of the previous attempt, however late it ran', () => {
    expect(nextAttemptAt(retrySchedules.fourWaits, 2, start + 7 * minute)).toBe(start + 12 * minute);
  });
});

describe('parseRetrySchedule', () => {
  test('returns the published schedule with the same waits', () => {
    expect(parseRetrySchedule(JSON.parse(JSON.stringify(retrySchedules.fiveWaits)))).toBe(retrySchedules.fiveWaits);
    expect(parseRetrySchedule({ waits_minutes: [1, 5, 15, 60] })).toBe(retrySchedules.fourWaits);
  });

  test('refuses anything else', () => {
    for (const value of [null, {}, { waits_minutes: [1, 5] }, { waits_minutes: [1, 5, 15, 60, 240, 960] }]) {
      expect(() => parseRetrySchedule(value)).toThrow(/Not a published retry schedule/);
    }
  });
});
