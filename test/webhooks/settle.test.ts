/**
 * The rules that settle one attempt (seed "Delivery, retry and pause"), and the API shapes of attempts
 * and of a subscription's breaker.
 */
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { createContractValidator } from '../../src/contract/validator.js';
import {
  breakerFields,
  settleAttempt,
  toAttemptResource,
  type AttemptOutcome,
  type TargetState,
} from '../../src/webhooks/outbox.js';
import { retrySchedules } from '../../src/webhooks/retry.js';

const t0 = Date.UTC(2026, 10, 20, 9, 0, 0);
const minute = 60_000;
const policy = { pauseAfter: 10, keepAttempts: 100 };
const subscription = {
  id: 'wh_01JD8Q2N5V7XK3M9T4RB6CWZ1A',
  kind: 'subscription',
  url: 'https://hooks.example.com/a',
  secret: 'whsec_4fQm9Zt2LxV7cR1nK8pH3wY6bD5sJ0aE',
  events: ['session.complete', 'session.failed'],
  schedule: retrySchedules.fourWaits,
} as const;

describe('settleAttempt', () => {
  const state = (overrides: Partial<TargetState> = {}): TargetState => ({
    ...subscription,
    consecutiveFailures: 0,
    pausedAt: null,
    ...overrides,
  });
  const result = (attempt: number, responseCode: number | null): AttemptOutcome => ({
    attemptId: 'att_00000001',
    deliveryId: 'dlv_00000001',
    attempt,
    attemptedAt: t0,
    finishedAt: t0 + 5,
    responseCode,
    error: null,
    durationMs: 5,
  });

  test('any 2xx succeeds and resets the count; 1xx, 3xx, 4xx, 5xx and no answer fail', () => {
    for (const code of [200, 201, 204, 299]) {
      expect(settleAttempt(state({ consecutiveFailures: 7 }), result(1, code), policy)).toMatchObject({
        status: 'succeeded',
        consecutiveFailures: 0,
      });
    }
    for (const code of [null, 101, 301, 302, 400, 401, 404, 500, 503]) {
      expect(settleAttempt(state(), result(1, code), policy).status).toBe('retry_scheduled');
    }
  });

  test('the tenth failed delivery in a row pauses; the ninth does not', () => {
    expect(settleAttempt(state({ consecutiveFailures: 8 }), result(5, 500), policy)).toMatchObject({
      consecutiveFailures: 9,
      pauses: false,
    });
    expect(settleAttempt(state({ consecutiveFailures: 9 }), result(5, 500), policy)).toMatchObject({
      status: 'exhausted',
      consecutiveFailures: 10,
      pauses: true,
    });
  });

  test('a failure while paused ends the delivery without a retry; a success leaves the breaker alone', () => {
    const paused = state({ consecutiveFailures: 10, pausedAt: t0 - 1 });
    expect(settleAttempt(paused, result(2, 503), policy)).toMatchObject({
      status: 'failed',
      delivery: 'failed',
      pauses: false,
    });
    expect(settleAttempt(paused, result(2, 200), policy)).toMatchObject({
      status: 'succeeded',
      consecutiveFailures: 10,
    });
  });

  test('the legacy webhook has no breaker', () => {
    const legacyState = { ...state({ consecutiveFailures: 9 }), kind: 'legacy' as const };
    expect(settleAttempt(legacyState, result(5, 500), policy)).toMatchObject({
      status: 'exhausted',
      consecutiveFailures: 9,
      pauses: false,
    });
  });
});

describe('API shapes', () => {
  const validator = createContractValidator(loadContract());

  test('attempts render as WebhookDeliveryAttempt and breaker fields as WebhookSubscription members', () => {
    const attempt = toAttemptResource({
      id: 'att_01JD8V1C3E5G7J9L1N3Q5S7U9X',
      deliveryId: 'dlv_01JD8V0B2D4F6H8K0M2P4R6T8W',
      targetId: subscription.id,
      event: 'session.complete',
      attempt: 1,
      status: 'retry_scheduled',
      responseCode: 503,
      error: 'Receiver answered 503 Service Unavailable.',
      attemptedAt: t0,
      nextRetryAt: t0 + minute,
      durationMs: 412,
    });
    expect(attempt).toMatchObject({
      attempted_at: '2026-11-20T09:00:00.000Z',
      next_retry_at: '2026-11-20T09:01:00.000Z',
    });
    expect(validator.validate('#/components/schemas/WebhookDeliveryAttempt', attempt).errors).toEqual([]);
    const paused = breakerFields({ ...subscription, consecutiveFailures: 10, pausedAt: t0 });
    expect(paused).toEqual({ status: 'paused', consecutive_failures: 10, paused_at: '2026-11-20T09:00:00.000Z' });
    const resource = {
      id: subscription.id,
      label: 'CRM sync',
      url: subscription.url,
      events: subscription.events,
      retry_schedule: subscription.schedule,
      created_at: '2026-11-18T14:02:51.376Z',
      updated_at: '2026-11-18T14:02:51.376Z',
      ...paused,
    };
    expect(validator.validate('#/components/schemas/WebhookSubscription', resource).errors).toEqual([]);
  });
});
