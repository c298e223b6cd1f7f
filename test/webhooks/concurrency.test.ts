/**
 * Bounded concurrency and bounded history: a receiver that hangs holds back only its own deliveries, and
 * each subscription keeps its last 100 attempts (seed "Limits").
 */
import { expect, test } from 'vitest';
import { completed, createHarness, subscribe } from './fixtures/harness.js';
import { gate, receiversClosedAfterEach } from './fixtures/receiver.js';

const receiver = receiversClosedAfterEach();

test('a hanging receiver does not delay deliveries to another', async () => {
  const release = gate();
  const hanging = await receiver(() => release.promise.then(() => 200));
  const healthy = await receiver();
  const { outbox, dispatcher, settled } = createHarness({ concurrency: 4, perTargetConcurrency: 1 });
  const slow = subscribe(outbox, hanging.url, { events: ['session.complete'] });
  const fast = subscribe(outbox, healthy.url, { events: ['session.complete'] });
  dispatcher.start();
  // Each publish reaches both subscriptions; the slow one's backlog is queued first.
  const ids = Array.from({ length: 5 }, (_, n) => dispatcher.publish(completed(n))).flat();
  expect(ids).toHaveLength(10);

  await settled(fast.id, 5);
  expect(hanging.requests).toHaveLength(1);
  expect(outbox.listAttempts(fast.id).map((a) => a.status)).toEqual(Array(5).fill('succeeded'));
  expect(outbox.listAttempts(slow.id)).toEqual([]);

  release.open();
  await hanging.waitFor(5);
  await dispatcher.idle();
  expect(outbox.listAttempts(slow.id).map((a) => a.status)).toEqual(Array(5).fill('succeeded'));
});

test('the global limit bounds attempts in flight across receivers', async () => {
  const release = gate();
  let inFlight = 0;
  let peak = 0;
  const handler = async (): Promise<number> => {
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    await release.promise;
    inFlight -= 1;
    return 200;
  };
  const hooks = await Promise.all([receiver(handler), receiver(handler), receiver(handler)]);
  const { outbox, dispatcher, db } = createHarness({ concurrency: 2, perTargetConcurrency: 2 });
  hooks.forEach((hook) => subscribe(outbox, hook.url));
  dispatcher.start();
  expect([...dispatcher.publish(completed(1)), ...dispatcher.publish(completed(2))]).toHaveLength(6);
  const leased = db.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE lease_until IS NOT NULL').get();
  expect(leased).toEqual({ n: 2 });

  release.open();
  await Promise.all(hooks.map((hook) => hook.waitFor(2)));
  await dispatcher.idle();
  expect(peak).toBeLessThanOrEqual(2);
  expect(db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'").get()).toEqual({ n: 6 });
});

test('a subscription keeps its last 100 attempts, newest first', async () => {
  const hook = await receiver();
  const { outbox, dispatcher, db } = createHarness({ perTargetConcurrency: 4 });
  const target = subscribe(outbox, hook.url);
  dispatcher.start();
  const ids: string[] = [];
  for (let n = 0; n < 105; n += 1) {
    ids.push(...dispatcher.publish(completed(n)));
    // One at a time, so that the order of the attempts is the order of publication.
    await dispatcher.idle();
  }
  await hook.waitFor(105);
  const kept = outbox.listAttempts(target.id, 1000);
  expect(kept).toHaveLength(100);
  expect(kept.map((attempt) => attempt.deliveryId)).toEqual(ids.slice(5).reverse());
  const count = (table: string) =>
    (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE target_id = ?`).get(target.id) as { n: number }).n;
  expect(count('webhook_attempts')).toBe(100);
  // A settled delivery whose attempts are all pruned is forgotten as well.
  expect(count('webhook_deliveries')).toBe(100);
  expect(ids.slice(0, 5).map((id) => outbox.getDelivery(id))).toEqual(Array(5).fill(undefined));
});
