/**
 * The retry schedules of webhook deliveries (seed "Delivery, retry and pause" 2; the contract's
 * `RetrySchedule` variants). Each wait is counted from the start of the previous attempt.
 * @module
 */
import type { components } from '../generated/openapi.js';

export type RetrySchedule = components['schemas']['RetrySchedule'];

/** The two published schedules. */
export const retrySchedules: {
  readonly fourWaits: components['schemas']['RetryScheduleFourWaits'];
  readonly fiveWaits: components['schemas']['RetryScheduleFiveWaits'];
} = {
  fourWaits: { waits_minutes: [1, 5, 15, 60], max_attempts: 5, span_minutes: 81 },
  fiveWaits: { waits_minutes: [1, 5, 15, 60, 240], max_attempts: 6, span_minutes: 321 },
};

/** The schedules by the names the conformance profiles and `boardkit serve --webhook-retries` use. */
export const retryScheduleNames = {
  'four-waits': retrySchedules.fourWaits,
  'five-waits': retrySchedules.fiveWaits,
} as const;
export type RetryScheduleName = keyof typeof retryScheduleNames;

const minute = 60_000;

/**
 * When the attempt after `attemptNumber` (1 for the first) is due, given when that attempt started; or
 * `null` when it was the last attempt of the schedule.
 */
export function nextAttemptAt(schedule: RetrySchedule, attemptNumber: number, lastAttemptAt: number): number | null {
  const wait = schedule.waits_minutes[attemptNumber - 1];
  return wait === undefined || isExhausted(schedule, attemptNumber) ? null : lastAttemptAt + wait * minute;
}

/** Whether `attemptNumber` attempts use up the schedule, so the delivery is marked failed. */
export function isExhausted(schedule: RetrySchedule, attemptNumber: number): boolean {
  return attemptNumber >= schedule.max_attempts;
}

/** One of the published schedules equal to `value` (e.g. read back from storage), or an error. */
export function parseRetrySchedule(value: unknown): RetrySchedule {
  const waits = (value as { waits_minutes?: unknown } | null)?.waits_minutes;
  const match = Object.values(retrySchedules).find(
    (schedule) => JSON.stringify(schedule.waits_minutes) === JSON.stringify(waits),
  );
  if (match === undefined) {
    throw new Error(`Not a published retry schedule: ${JSON.stringify(value)}`);
  }
  return match;
}
