/**
 * Crash safety: a delivery claimed by a dispatcher that dies before settling it becomes due again when its
 * lease runs out, and a new dispatcher on the same database file delivers it with the same delivery id.
 */
import { afterEach, expect, test } from 'vitest';
import { completed, createHarness, startOfTest, subscribe } from './fixtures/harness.js';
import { gate, startReceiver, type Receiver } from './fixtures/receiver.js';
import { openDatabase, temporaryDatabaseFile } from './fixtures/sqlite.js';

const leaseMs = 60_000;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

test('a delivery in flight when its dispatcher dies is delivered again, once, with the same id', async () => {
  const storage = temporaryDatabaseFile();
  cleanups.push(storage.remove);
  const firstAnswer = gate();
  const hook: Receiver = await startReceiver((_, index) => (index === 0 ? firstAnswer.promise.then(() => 200) : 200));
  cleanups.push(() => hook.close());

  // The first process: it claims the delivery, POSTs it, and dies before the answer comes.
  const before = createHarness({ db: openDatabase(storage.file), leaseMs });
  const target = subscribe(before.outbox, hook.url);
  before.dispatcher.start();
  const [deliveryId] = before.dispatcher.publish(completed(1));
  await hook.waitFor(1);
  before.dispatcher.stop();
  before.db.close();

  // The second process, on the same file, starts just before the lease runs out.
  const db = openDatabase(storage.file);
  cleanups.push(() => void db.close());
  const after = createHarness({ db, leaseMs, startAt: startOfTest + leaseMs - 1 });
  after.dispatcher.start();
  await after.dispatcher.idle();
  expect(hook.requests).toHaveLength(1);
  expect(after.time.armed).toEqual([startOfTest + leaseMs]);

  after.time.advance(1);
  await hook.waitFor(2);
  await after.dispatcher.idle();
  const ids = hook.requests.map((request) => request.headers['x-service-delivery-id']);
  expect(ids).toEqual([deliveryId, deliveryId]);
  expect(after.outbox.getDelivery(deliveryId as string)).toMatchObject({ status: 'succeeded', attemptsMade: 1 });
  expect(after.outbox.listAttempts(target.id)).toMatchObject([{ attempt: 1, status: 'succeeded', deliveryId }]);

  // The dead process's answer arrives at last; it cannot be recorded, and that is reported, not thrown.
  firstAnswer.open();
  await before.dispatcher.idle();
  expect(before.errors).toHaveLength(1);
  expect(String(before.errors[0])).toMatch(/database connection is not open/);
  expect(after.outbox.listAttempts(target.id)).toHaveLength(1);

  // Nothing is left to deliver: a day later the receiver has seen the delivery twice, no more.
  after.time.advance(24 * 60 * 60_000);
  await after.dispatcher.idle();
  expect(hook.requests).toHaveLength(2);
});
