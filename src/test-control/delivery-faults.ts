/**
 * The faults at the webhook seam: each attempt passes through the active delivery faults just before it
 * is sent, and what they decide (headers, body, whether it is sent, extra deliveries, the status recorded
 * for it) is what the receiver gets and the outbox records.
 * @module
 */
import { STATUS_CODES } from 'node:http';
import { postDelivery, type PostResult } from '../webhooks/delivery-request.js';
import type { PostAttempt } from '../webhooks/dispatcher.js';
import type { FaultSwitches } from './fault-switches.js';
import type { DeliveryTarget, FaultDelivery, FaultState } from './faults/types.js';

/** The result of an attempt recorded with another status, described as the dispatcher describes one. */
function recorded(result: PostResult, status: number): PostResult {
  const reason = `${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();
  return {
    ...result,
    responseCode: status,
    error: status >= 200 && status <= 299 ? null : `Receiver answered ${reason}.`,
  };
}

export function deliveryFaults(switches: FaultSwitches, state: FaultState): PostAttempt {
  return async (input, claim) => {
    const faults = switches.activeAt('delivery');
    if (faults.length === 0) {
      return postDelivery(input);
    }
    const headers = Object.fromEntries(
      Object.entries(input.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    const delivery: FaultDelivery = {
      headers,
      body: input.body,
      forward: true,
      guarded: true,
      reportStatus: undefined,
      extra: [],
    };
    // Kept with the faults' memory, which forgets when the switches change.
    const seenKey = `deliveries to ${claim.target.id}`;
    const seen =
      (state.memory.get(seenKey) as DeliveryTarget['seen'] | undefined) ??
      new Map<string, { headers: Record<string, string>; attempts: number }>();
    state.memory.set(seenKey, seen);
    faults.forEach((fault) => fault.delivery(delivery, { secret: claim.target.secret, seen }, state));
    // An attempt the faults keep from the receiver counts as answered 200 unless they record otherwise.
    let result: PostResult = { responseCode: 200, error: null, durationMs: 0 };
    for (const copy of [delivery, ...delivery.extra]) {
      if (copy.forward) {
        const sent = await postDelivery({
          ...input,
          headers: copy.headers,
          body: copy.body,
          allowPrivate: input.allowPrivate === true || !copy.guarded,
        });
        result = copy === delivery ? sent : result;
      }
    }
    return delivery.reportStatus === undefined ? result : recorded(result, delivery.reportStatus);
  };
}
