/**
 * Whether the target can deliver to the suite's receiver at all, decided once per run before the first
 * check that needs a delivery. The URL guard acts at delivery time (seed "Webhook subscriptions": no
 * private addresses), so a deployment that guards loopback, or one that cannot route to the machine
 * running the suite, accepts the subscription and then fails every attempt without a response. Such a
 * target is not wrong, it is untestable here: its delivery checks skip and say why.
 *
 * Only that exact picture counts: the receiver saw nothing AND the deliveries listing shows attempts, none
 * of which got a response (`response_code: null`). A target that lists no attempt at all, or whose
 * attempts got an answer from somewhere, is left to the checks, which fail it.
 * @module
 */
import type { CheckContext } from './check.js';
import type { Exchange } from './exchange.js';
import { pageOf } from './pages.js';
import { causeCancellation, subscribeUrl } from './subscriptions.js';

/** What the probe needs of a check's context. */
export type ReachContext = Pick<CheckContext, 'http' | 'contract' | 'target' | 'receiver' | 'secrets' | 'timeouts'>;

interface ListedAttempt {
  status?: unknown;
  response_code?: unknown;
  error?: unknown;
}

/** How often the probe looks at the receiver and the listing, in real ms. */
const pollMs = 100;

/** The reason the delivery checks skip, or `undefined` when the target reaches the receiver (or may). */
export async function receiverUnreachableReason(ctx: ReachContext): Promise<string | undefined> {
  const receiver = await ctx.receiver();
  const endpoint = receiver.endpoint(200, 'delivery probe');
  const { id } = await subscribeUrl(ctx, 'delivery probe', endpoint.url, ['session.cancelled']);
  if (id === undefined) {
    // A refused subscription is the checks' to judge (HOOK-001 fails; the others say so).
    return undefined;
  }
  try {
    await causeCancellation(ctx);
    const deadline = Date.now() + ctx.timeouts.sessionMs;
    while (Date.now() < deadline) {
      if (await endpoint.waitFor((deliveries) => deliveries.length > 0, pollMs)) {
        return undefined;
      }
      const listing: Exchange = await ctx.http.get(`/v1/webhooks/${id}/deliveries`);
      const attempts = pageOf(listing).items as ListedAttempt[];
      // An attempt is recorded after its answer, so a listed attempt with a response was received.
      if (
        attempts.length > 0 &&
        endpoint.deliveries().length === 0 &&
        attempts.every((attempt) => attempt.response_code === null && attempt.status !== 'succeeded')
      ) {
        const reasons = [
          ...new Set(attempts.map((attempt) => (typeof attempt.error === 'string' ? attempt.error : 'no response'))),
        ];
        return `the target does not deliver to the suite's receiver at ${receiver.origin} (its attempts: ${reasons.join('; ')}); the reference server does with \`boardkit serve --allow-loopback-webhooks\``;
      }
      if (attempts.length > 0) {
        return undefined;
      }
    }
    return undefined;
  } finally {
    await ctx.http.delete(`/v1/webhooks/${id}`);
  }
}
