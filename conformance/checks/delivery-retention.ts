/**
 * The deliveries listing keeps the last 100 attempts (seed "Limits", "Events › Delivery, retry and pause"
 * 4): 120 decisions captured on one session make 120 `decision.captured` deliveries, each answered 200 at
 * the first attempt; the listing, walked to its end, must hold at most 100, the newest among them and
 * the oldest gone. A deployment whose event list lacks decision.captured (variants 1 to 3) refuses the
 * subscription, and the check skips.
 * @module
 */
import { deliveryHeaders, header } from '../harness/deliveries.js';
import { ownWorkspaceOrShared } from '../harness/key-control.js';
import { walkList } from '../harness/pages.js';
import { discard, marker, startBodyA, startSession } from '../harness/sessions.js';
import { refusalReason, subscribe } from '../harness/subscriptions.js';
import { statusOf } from './problem-shape.js';
import { checksOf } from './define.js';

const check = checksOf('delivery-retention');

const retained = 100;
// Twenty over the limit, so the first delivery received is among the oldest attempts even if the target
// attempts several at once.
const events = retained + 20;
const requirements = ['DLVR-001', 'DLVR-002'];

export const lastHundred = check('last-100', requirements, {
  title: 'The deliveries listing keeps the last 100 attempts',
  preconditions: ['live', 'receiver-reachable'],
  async run(ctx) {
    // A workspace of its own when the test control provides one, so these requests spend no other quota.
    const http = await ownWorkspaceOrShared(ctx);
    const as = { ...ctx, http };
    const subscribed = await subscribe(as, ['decision.captured']);
    if ('refused' in subscribed) {
      const reason =
        statusOf(subscribed.refused) === 400
          ? 'the deployment refuses a subscription to decision.captured (400): its event list lacks it (variant 4 has it)'
          : refusalReason(subscribed.refused);
      requirements.forEach((id) => ctx.skip(id, reason));
      return;
    }
    const { subscription } = subscribed;
    const session = await startSession(http, ctx.contract, startBodyA(ctx.target.synths, marker('retention'), 1));
    for (let index = 1; index <= events; index++) {
      await http.post(`/v1/sessions/${session.id}/decisions`, { decision: `Decision ${index} of a retention run.` });
    }
    await subscription.endpoint.waitFor(
      (deliveries) => deliveries.length >= events,
      ctx.timeouts.sessionMs,
      ctx.signal,
    );
    const received = subscription.endpoint.deliveries();
    const idOf = (index: number): string | undefined => {
      const delivery = received[index];
      return delivery === undefined ? undefined : header(delivery, deliveryHeaders.deliveryId);
    };
    // The attempt is recorded once the receiver has answered: walk the listing until the newest is in it.
    const newest = idOf(received.length - 1);
    let walk = await walkList(http, `/v1/webhooks/${subscription.id}/deliveries`, 50, 10);
    const listedIds = (): string[] =>
      walk.pages.flatMap((page) => page.items.map((item) => String((item as { delivery_id?: unknown }).delivery_id)));
    for (let tries = 0; tries < 20 && !listedIds().includes(newest ?? '') && !ctx.signal.aborted; tries++) {
      await subscription.endpoint.waitFor(() => false, 50, ctx.signal);
      walk = await walkList(http, `/v1/webhooks/${subscription.id}/deliveries`, 50, 10);
    }
    const evidence = walk.pages.map((page) => page.exchange);
    const listed = listedIds();
    if (received.length < events) {
      requirements.forEach((id) =>
        ctx.fail(id, {
          kind: 'delivery',
          message: `only ${received.length} of ${events} decision.captured deliveries arrived`,
          expected: events,
          got: received.length,
          evidence,
        }),
      );
    } else {
      ctx.expect(
        'DLVR-001',
        listed.length <= retained && listed.length > 0,
        {
          kind: 'limit',
          message: `the listing shows ${listed.length} attempts after ${received.length}`,
          expected: `at most ${retained}`,
          got: listed.length,
          evidence,
        },
        `${listed.length} attempts listed after ${received.length}`,
      );
      const oldest = idOf(0);
      ctx.expect(
        'DLVR-002',
        newest !== undefined && listed.includes(newest) && !listed.includes(oldest ?? ''),
        {
          kind: 'limit',
          message: 'the listing lacks the newest attempt or still holds the oldest',
          expected: { holds: newest ?? null, dropped: oldest ?? null },
          got: { holdsNewest: listed.includes(newest ?? ''), holdsOldest: listed.includes(oldest ?? '') },
          evidence,
        },
        'the newest attempt is listed and the oldest dropped',
      );
    }
    await Promise.all([http.delete(`/v1/webhooks/${subscription.id}`), discard(http, session.id)]);
  },
});

export const deliveryRetentionChecks = [lastHundred];
