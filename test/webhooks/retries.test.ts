/**
 * Retries on the published schedules, driven by manual time: each attempt happens when the dispatcher's
 * own timer fires, not earlier, with the same delivery id and a fresh signature.
 */
import { describe, expect, test } from 'vitest';
import { retrySchedules } from '../../src/webhooks/retry.js';
import { verifyDelivery } from '../../src/webhooks/signing.js';
import { completed, createHarness, minute, startOfTest, subscribe } from './fixtures/harness.js';
import { receiversClosedAfterEach } from './fixtures/receiver.js';

const receiver = receiversClosedAfterEach();

describe.each([
  ['fourWaits', retrySchedules.fourWaits],
  ['fiveWaits', retrySchedules.fiveWaits],
] as const)('the %s schedule', (_, schedule) => {
  test('retries a failing receiver after each wait, then marks the delivery failed', async () => {
    const { time, outbox, dispatcher } = createHarness();
    const failing = await receiver(() => 503);
    const target = subscribe(outbox, failing.url, { schedule });
    dispatcher.start();
    const [deliveryId] = dispatcher.publish(completed(1));
    await failing.waitFor(1);
    await dispatcher.idle();

    for (const [index, wait] of schedule.waits_minutes.entries()) {
      expect(time.armed[0]).toBe(time.now() + wait * minute);
      time.advance(wait * minute - 1);
      await dispatcher.idle();
      expect(failing.requests).toHaveLength(index + 1);
      time.advance(1);
      await failing.waitFor(index + 2);
      await dispatcher.idle();
    }
    expect(failing.requests).toHaveLength(schedule.max_attempts);
    expect(time.now() - startOfTest).toBe(schedule.span_minutes * minute);

    time.advance(24 * 60 * minute);
    await dispatcher.idle();
    expect(failing.requests).toHaveLength(schedule.max_attempts);
    expect(time.armed).toEqual([]);

    const ids = new Set(failing.requests.map((request) => request.headers['x-service-delivery-id']));
    expect([...ids]).toEqual([deliveryId]);
    const stamps = failing.requests.map((request) => Number(request.headers['x-service-timestamp']));
    let offset = 0;
    const minutesIn = [0, ...schedule.waits_minutes].map((wait) => (offset += wait));
    expect(stamps).toEqual(minutesIn.map((minutes) => Math.floor((startOfTest + minutes * minute) / 1000)));

    const attempts = outbox.listAttempts(target.id).reverse();
    const last = schedule.max_attempts;
    expect(attempts.map((a) => [a.attempt, a.status, a.responseCode])).toEqual(
      attempts.map((_, index) => [index + 1, index + 1 === last ? 'exhausted' : 'retry_scheduled', 503]),
    );
    expect(attempts.map((a) => a.nextRetryAt)).toEqual([...attempts.slice(1).map((a) => a.attemptedAt), null]);
    expect(outbox.getDelivery(deliveryId as string)).toMatchObject({ status: 'failed', attemptsMade: last });
    expect(outbox.getTarget(target.id)?.consecutiveFailures).toBe(1);
  });
});

test('a receiver that recovers gets the delivery completed, and the failure count is reset', async () => {
  const { time, outbox, dispatcher } = createHarness();
  const flaky = await receiver((_, index) => (index < 2 ? 500 : 200));
  const target = subscribe(outbox, flaky.url);
  dispatcher.start();
  const [deliveryId] = dispatcher.publish(completed(2));
  await dispatcher.idle();
  time.advance(minute);
  await dispatcher.idle();
  time.advance(5 * minute);
  await flaky.waitFor(3);
  await dispatcher.idle();
  expect(outbox.getDelivery(deliveryId as string)).toMatchObject({ status: 'succeeded', attemptsMade: 3 });
  const statuses = outbox.listAttempts(target.id).map((a) => a.status);
  expect(statuses).toEqual(['succeeded', 'retry_scheduled', 'retry_scheduled']);
  expect(time.armed).toEqual([]);
});

test('an idempotent receiver processes a delivery once although it arrives again after a lost answer', async () => {
  const { time, outbox, dispatcher } = createHarness();
  const processed: string[] = [];
  let target = { secret: '' };
  let first: string | undefined;
  const hook = await receiver((request) => {
    const { headers, body: rawBody } = request;
    const check = verifyDelivery({ secret: target.secret, headers, rawBody, now: time.now() });
    if (!check.ok) {
      return check.status;
    }
    const id = String(request.headers['x-service-delivery-id']);
    if (processed.includes(id)) {
      return 200;
    }
    processed.push(id);
    // The answer to the first delivery's first attempt is lost: the work was done, the sender sees a failure.
    return id === first ? 502 : 200;
  });
  target = subscribe(outbox, hook.url);
  dispatcher.start();
  [first] = dispatcher.publish(completed(3));
  const [second] = dispatcher.publish(completed(4));
  await hook.waitFor(2);
  await dispatcher.idle();
  time.advance(minute);
  await hook.waitFor(3);
  await dispatcher.idle();
  expect(hook.requests.map((request) => request.headers['x-service-delivery-id']).sort()).toEqual(
    [first, first, second].sort(),
  );
  expect(first).not.toBe(second);
  expect(processed.sort()).toEqual([first, second].sort());
  // Re-signed for the retry, the repeated request carries a new timestamp and still verifies.
  const repeats = hook.requests.filter((request) => request.headers['x-service-delivery-id'] === first);
  expect(new Set(repeats.map((request) => request.headers['x-service-timestamp'])).size).toBe(2);
});
