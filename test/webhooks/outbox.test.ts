/**
 * The outbox behaviour the dispatcher relies on, checked on both storages: in memory and SQLite.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createMemoryOutbox } from '../../src/webhooks/memory-outbox.js';
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  type NewDelivery,
  type TargetSettings,
  type WebhookOutbox,
} from '../../src/webhooks/outbox.js';
import { retrySchedules } from '../../src/webhooks/retry.js';
import { createSqliteOutbox } from '../../src/webhooks/sqlite-outbox.js';
import { openDatabase, type TestDatabase } from './fixtures/sqlite.js';

const t0 = Date.UTC(2026, 10, 20, 9, 0, 0);
const minute = 60_000;
const policy = { pauseAfter: 10, keepAttempts: 100 };
const claimOptions = { limit: 10, leaseMs: minute, perTargetLimit: 2, inFlight: new Map<string, number>() };

const subscription: TargetSettings = {
  id: 'wh_01JD8Q2N5V7XK3M9T4RB6CWZ1A',
  kind: 'subscription',
  url: 'https://hooks.example.com/a',
  secret: 'whsec_4fQm9Zt2LxV7cR1nK8pH3wY6bD5sJ0aE',
  events: ['session.complete', 'session.failed'],
  schedule: retrySchedules.fourWaits,
};
const other: TargetSettings = {
  ...subscription,
  id: 'wh_02JD8Q2N5V7XK3M9T4RB6CWZ1B',
  url: 'https://hooks.example.com/b',
};
const legacy: TargetSettings = {
  ...subscription,
  id: 'key_01JD8Q2N5V7XK3M9T4',
  kind: 'legacy',
  events: ['session.complete'],
};

let databases: TestDatabase[] = [];
afterEach(() => {
  databases.forEach((db) => db.close());
  databases = [];
});

const storages: Array<[string, () => WebhookOutbox]> = [
  ['memory', createMemoryOutbox],
  [
    'sqlite',
    () => {
      const db = openDatabase();
      databases.push(db);
      return createSqliteOutbox(db);
    },
  ],
];

let sequence = 0;
function enqueue(outbox: WebhookOutbox, targetId: string, createdAt = t0): string {
  const id = `dlv_test${String(++sequence).padStart(8, '0')}`;
  const body = '{"event":"session.complete","data":{}}';
  outbox.enqueue({ id, targetId, event: 'session.complete', body, createdAt });
  return id;
}

function outcome(claim: ClaimedDelivery, responseCode: number | null, attemptedAt: number): AttemptOutcome {
  return {
    attemptId: claim.attemptId,
    deliveryId: claim.delivery.id,
    attempt: claim.attempt,
    attemptedAt,
    finishedAt: attemptedAt + 40,
    responseCode,
    error: responseCode === 200 ? null : 'Receiver answered 500 Internal Server Error.',
    durationMs: 40,
  };
}

describe.each(storages)('%s outbox', (_, create) => {
  test('saves targets, keeps the breaker across updates and lists subscribers of an event', () => {
    const outbox = create();
    [subscription, other, legacy].forEach((target) => outbox.saveTarget(target));
    // Settings passed with a breaker of their own (a TargetState read earlier) do not overwrite the stored one.
    outbox.saveTarget({ ...other, events: ['outcomes.ready'], consecutiveFailures: 7, pausedAt: t0 } as TargetSettings);
    expect(outbox.getTarget(other.id)).toEqual({
      ...other,
      events: ['outcomes.ready'],
      consecutiveFailures: 0,
      pausedAt: null,
    });
    expect(outbox.subscribersOf('session.complete').map((t) => t.id)).toEqual([subscription.id]);
    expect(outbox.subscribersOf('outcomes.ready').map((t) => t.id)).toEqual([other.id]);
    expect(outbox.subscribersOf('share.viewed')).toEqual([]);
    expect(outbox.getTarget('wh_missing')).toBeUndefined();
  });

  test('claims due deliveries once, within the limits, oldest first', () => {
    const outbox = create();
    [subscription, other].forEach((target) => outbox.saveTarget(target));
    const [a1, a2, a3] = [1, 2, 3].map(() => enqueue(outbox, subscription.id));
    const b1 = enqueue(outbox, other.id, t0 + 1);
    expect(outbox.claimDue(t0 - 1, claimOptions)).toEqual([]);
    const first = outbox.claimDue(t0 + 1, { ...claimOptions, inFlight: new Map([[subscription.id, 1]]) });
    expect(first.map((claim) => claim.delivery.id)).toEqual([a1, b1]);
    expect(first.map((claim) => claim.attempt)).toEqual([1, 1]);
    expect(first[0]?.target).toMatchObject({ id: subscription.id, secret: subscription.secret });
    const second = outbox.claimDue(t0 + 1, { ...claimOptions, limit: 1 });
    expect(second.map((claim) => claim.delivery.id)).toEqual([a2]);
    expect(outbox.claimDue(t0 + 1, claimOptions).map((claim) => claim.delivery.id)).toEqual([a3]);
    expect(outbox.claimDue(t0 + 1, claimOptions)).toEqual([]);
  });

  test('a lease that runs out makes the delivery due again, with the same id and attempt number', () => {
    const outbox = create();
    outbox.saveTarget(subscription);
    const id = enqueue(outbox, subscription.id);
    const [lost] = outbox.claimDue(t0, claimOptions);
    expect(outbox.nextDueAt()).toBeUndefined();
    expect(outbox.nextLeaseExpiry()).toBe(t0 + minute);
    expect(outbox.claimDue(t0 + minute - 1, claimOptions)).toEqual([]);
    const [again] = outbox.claimDue(t0 + minute, claimOptions);
    expect(again?.delivery.id).toBe(id);
    expect(again?.attempt).toBe(1);
    expect(again?.attemptId).not.toBe(lost?.attemptId);
    // The first holder's late answer is not recorded: the lease is no longer its own.
    expect(outbox.recordAttempt(outcome(lost as ClaimedDelivery, 200, t0), policy)).toBeUndefined();
    expect(outbox.recordAttempt(outcome(again as ClaimedDelivery, 200, t0 + minute), policy)?.status).toBe('succeeded');
    expect(outbox.getDelivery(id)).toMatchObject({ status: 'succeeded', attemptsMade: 1, leaseUntil: null });
    expect(outbox.listAttempts(subscription.id)).toHaveLength(1);
  });

  test('leases run on their own clock: a due time far ahead on the schedule clock does not end one', () => {
    const outbox = create();
    outbox.saveTarget(subscription);
    const id = enqueue(outbox, subscription.id);
    // The schedule clock runs a thousand times faster than the lease clock, which starts elsewhere.
    const real = Date.UTC(2030, 0, 1);
    const [held] = outbox.claimDue(t0, { ...claimOptions, leaseNow: real });
    expect(held?.delivery.leaseUntil).toBe(real + minute);
    expect(outbox.nextLeaseExpiry()).toBe(real + minute);
    expect(outbox.claimDue(t0 + 1000 * minute, { ...claimOptions, leaseNow: real + minute - 1 })).toEqual([]);
    const [again] = outbox.claimDue(t0 + 1000 * minute, { ...claimOptions, leaseNow: real + minute });
    expect(again?.delivery.id).toBe(id);
  });

  test('releasing the leases makes held deliveries due at once, and a result of the old holder is dropped', () => {
    const outbox = create();
    outbox.saveTarget(subscription);
    const id = enqueue(outbox, subscription.id);
    enqueue(outbox, subscription.id);
    const held = outbox.claimDue(t0, claimOptions);
    expect(held).toHaveLength(2);
    expect(outbox.nextDueAt()).toBeUndefined();
    expect(outbox.releaseLeases()).toBe(2);
    expect(outbox.nextLeaseExpiry()).toBeUndefined();
    expect(outbox.nextDueAt()).toBe(t0);
    expect(outbox.recordAttempt(outcome(held[0] as ClaimedDelivery, 200, t0), policy)).toBeUndefined();
    expect(outbox.getDelivery(id)).toMatchObject({ status: 'pending', attemptsMade: 0, leaseUntil: null });
    expect(outbox.claimDue(t0, claimOptions)).toHaveLength(2);
    expect(outbox.releaseLeases()).toBe(2);
  });

  test('a failed attempt is due again after the wait; the last one exhausts the delivery', () => {
    const outbox = create();
    outbox.saveTarget(subscription);
    const id = enqueue(outbox, subscription.id);
    let now = t0;
    for (const wait of [1, 5, 15, 60]) {
      const [claim] = outbox.claimDue(now, claimOptions);
      expect(outbox.recordAttempt(outcome(claim as ClaimedDelivery, 500, now), policy)).toMatchObject({
        status: 'retry_scheduled',
        nextRetryAt: now + wait * minute,
      });
      expect(outbox.nextDueAt()).toBe(now + wait * minute);
      expect(outbox.claimDue(now + wait * minute - 1, claimOptions)).toEqual([]);
      now += wait * minute;
    }
    const [last] = outbox.claimDue(now, claimOptions);
    expect(last?.attempt).toBe(5);
    expect(outbox.recordAttempt(outcome(last as ClaimedDelivery, 500, now), policy)).toMatchObject({
      status: 'exhausted',
      delivery: 'failed',
      consecutiveFailures: 1,
    });
    expect(outbox.getDelivery(id)).toMatchObject({ status: 'failed', attemptsMade: 5 });
    expect(outbox.nextDueAt()).toBeUndefined();
    const listed = outbox.listAttempts(subscription.id).map(({ attempt, status }) => [attempt, status]);
    expect(listed).toEqual([
      [5, 'exhausted'],
      [4, 'retry_scheduled'],
      [3, 'retry_scheduled'],
      [2, 'retry_scheduled'],
      [1, 'retry_scheduled'],
    ]);
  });

  test('pausing fails the waiting deliveries, refuses new ones and fails due ones at claim', () => {
    const outbox = create();
    outbox.saveTarget(subscription);
    const tripping = { ...policy, pauseAfter: 1 };
    const failing = enqueue(outbox, subscription.id);
    // Taken at the last attempt of `failing` by a holder that never answers.
    const stranded = enqueue(outbox, subscription.id, t0 + 50 * minute);
    const waiting = enqueue(outbox, subscription.id, t0 + 1000 * minute);
    for (const offset of [0, 1, 6, 21, 81]) {
      const now = t0 + offset * minute;
      const claims = outbox.claimDue(now, claimOptions);
      const claim = claims.find((c) => c.delivery.id === failing) as ClaimedDelivery;
      const settled = outbox.recordAttempt(outcome(claim, 500, now), tripping);
      expect(settled?.pauses).toBe(offset === 81);
    }
    const pausedAt = t0 + 81 * minute + 40;
    expect(outbox.getTarget(subscription.id)).toMatchObject({ consecutiveFailures: 1, pausedAt });
    // Failed without an attempt, so there is nothing to list about it: it is forgotten at once.
    expect(outbox.getDelivery(waiting)).toBeUndefined();
    expect(outbox.getDelivery(stranded)?.status).toBe('pending');
    expect(outbox.claimDue(t0 + 83 * minute, claimOptions)).toEqual([]);
    expect(outbox.getDelivery(stranded)?.status).toBe('failed');
    const refused: NewDelivery = {
      id: 'dlv_refused01',
      targetId: subscription.id,
      event: 'share.viewed',
      body: '{}',
      createdAt: t0,
    };
    expect(outbox.enqueue(refused)).toBe(false);
    expect(outbox.getDelivery('dlv_refused01')).toBeUndefined();
    expect(outbox.subscribersOf('session.complete')).toEqual([]);
    expect(outbox.enable(subscription.id)).toBe(true);
    expect(outbox.getTarget(subscription.id)).toMatchObject({ consecutiveFailures: 0, pausedAt: null });
    expect(outbox.enqueue(refused)).toBe(true);
    expect(outbox.claimDue(t0 + 2000 * minute, claimOptions).map((claim) => claim.delivery.id)).toEqual([refused.id]);
    expect(outbox.enable('wh_missing')).toBe(false);
  });

  test('keeps the newest attempts of a target and forgets settled deliveries with none left', () => {
    const outbox = create();
    [subscription, other].forEach((target) => outbox.saveTarget(target));
    const ids = Array.from({ length: 7 }, () => enqueue(outbox, subscription.id));
    enqueue(outbox, other.id);
    for (const claim of outbox.claimDue(t0, { ...claimOptions, perTargetLimit: 10 })) {
      outbox.recordAttempt(outcome(claim, 200, t0), { ...policy, keepAttempts: 3 });
    }
    expect(outbox.listAttempts(subscription.id).map((a) => a.deliveryId)).toEqual(ids.slice(-3).reverse());
    expect(outbox.listAttempts(subscription.id, 2)).toHaveLength(2);
    expect(outbox.listAttempts(other.id)).toHaveLength(1);
    const statuses = ids.map((id) => outbox.getDelivery(id)?.status);
    expect(statuses).toEqual([...Array(4).fill(undefined), ...Array(3).fill('succeeded')]);
  });

  test('removing a target forgets its deliveries and attempts, and a result arriving later is dropped', () => {
    const outbox = create();
    outbox.saveTarget(subscription);
    const id = enqueue(outbox, subscription.id);
    const [claim] = outbox.claimDue(t0, claimOptions);
    outbox.removeTarget(subscription.id);
    expect(outbox.recordAttempt(outcome(claim as ClaimedDelivery, 200, t0), policy)).toBeUndefined();
    expect(outbox.getDelivery(id)).toBeUndefined();
    expect(outbox.getTarget(subscription.id)).toBeUndefined();
    expect(outbox.listAttempts(subscription.id)).toEqual([]);
    expect(outbox.nextDueAt()).toBeUndefined();
  });
});
