/**
 * The breaker (seed "Delivery, retry and pause" 3): 10 consecutive failed deliveries pause a subscription;
 * a successful delivery or a re-enable resets the count; events raised while paused are not delivered.
 */
import { afterEach, expect, test } from 'vitest';
import { breakerFields, type TargetState } from '../../src/webhooks/outbox.js';
import {
  completed,
  createHarness,
  minute,
  runUntil,
  startOfTest,
  subscribe,
  type Harness,
} from './fixtures/harness.js';
import { gate, startReceiver, type Receiver } from './fixtures/receiver.js';

let hook: Receiver | undefined;
afterEach(async () => {
  await hook?.close();
});

/** Publishes `count` events and runs their attempts to the end of the four-wait schedule. */
async function deliverAll(harness: Harness, count: number, first: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, index) => harness.dispatcher.publish(completed(first + index))).flat();
  await runUntil(harness, harness.time.now() + 81 * minute);
  return ids;
}

test('ten failed deliveries in a row pause the subscription until it is re-enabled', async () => {
  let healthy = false;
  hook = await startReceiver(() => (healthy ? 200 : 500));
  const harness = createHarness({ perTargetConcurrency: 4 });
  const { outbox, dispatcher, paused, time } = harness;
  const target = subscribe(outbox, hook.url);
  dispatcher.start();

  await deliverAll(harness, 9, 1);
  expect(outbox.getTarget(target.id)).toMatchObject({ consecutiveFailures: 9, pausedAt: null });
  healthy = true;
  await deliverAll(harness, 1, 10);
  expect(outbox.getTarget(target.id)?.consecutiveFailures).toBe(0);

  healthy = false;
  const failed = await deliverAll(harness, 10, 11);
  expect(failed).toHaveLength(10);
  const state = outbox.getTarget(target.id);
  expect(state).toMatchObject({ consecutiveFailures: 10, pausedAt: expect.any(Number) });
  expect(paused).toEqual([{ targetId: target.id, at: state?.pausedAt }]);
  expect(breakerFields(state as TargetState)).toMatchObject({ status: 'paused', consecutive_failures: 10 });
  expect(hook.requests).toHaveLength(9 * 5 + 1 + 10 * 5);

  healthy = true;
  expect(dispatcher.publish(completed(21))).toEqual([]);
  await runUntil(harness, time.now() + 240 * minute);
  expect(hook.requests).toHaveLength(96);

  expect(outbox.enable(target.id)).toBe(true);
  const [resumed] = dispatcher.publish(completed(22));
  await hook.waitFor(97);
  await dispatcher.idle();
  expect(JSON.parse(hook.requests[96]?.body ?? '{}')).toMatchObject({ correlation_id: 'corr_test22' });
  expect(outbox.getDelivery(resumed as string)?.status).toBe('succeeded');
  expect(outbox.getTarget(target.id)).toMatchObject({ consecutiveFailures: 0, pausedAt: null });
  expect(paused).toHaveLength(1);
});

test('a pause ends the deliveries still retrying: one waiting and one in flight', async () => {
  const heldAttempt = gate();
  hook = await startReceiver(async (request) => {
    const { correlation_id: correlation } = JSON.parse(request.body) as { correlation_id: string };
    const earlier = hook?.requests.filter((r) => r.body.includes(`"${correlation}"`)).length ?? 0;
    if (correlation === 'corr_test3' && earlier === 2) {
      await heldAttempt.promise;
    }
    return 500;
  });
  let tripped = (): void => undefined;
  const pause = new Promise<void>((resolve) => {
    tripped = resolve;
  });
  const harness = createHarness({ pauseAfter: 1, onPaused: () => tripped() });
  const { outbox, dispatcher, time } = harness;
  const target = subscribe(outbox, hook.url);
  dispatcher.start();
  const advanceTo = (minutes: number): Promise<void> => runUntil(harness, startOfTest + minutes * minute);
  const [exhausting] = dispatcher.publish(completed(1));
  await dispatcher.idle();
  await advanceTo(1);
  await advanceTo(6);
  await advanceTo(21);
  const [waiting] = dispatcher.publish(completed(2));
  await advanceTo(22);
  await advanceTo(80);
  const [flying] = dispatcher.publish(completed(3));
  await dispatcher.idle();
  expect(hook.requests).toHaveLength(4 + 4 + 1);
  // At minute 81 the first delivery's last attempt trips the breaker while the third one's retry is held.
  time.advance(minute);
  await pause;
  heldAttempt.open();
  await dispatcher.idle();
  await advanceTo(24 * 60);

  const attemptsOf = (id: string | undefined) =>
    outbox
      .listAttempts(target.id)
      .filter((a) => a.deliveryId === id)
      .map((a) => a.status);
  expect(attemptsOf(exhausting)).toEqual(['exhausted', ...Array(4).fill('retry_scheduled')]);
  expect(attemptsOf(waiting)).toEqual(Array(4).fill('retry_scheduled'));
  expect(attemptsOf(flying)).toEqual(['failed', 'retry_scheduled']);
  expect(outbox.getDelivery(waiting as string)?.status).toBe('failed');
  expect(outbox.getDelivery(flying as string)?.status).toBe('failed');
  expect(hook.requests).toHaveLength(5 + 4 + 2);
  expect(time.armed).toEqual([]);
});
