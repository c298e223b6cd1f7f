/**
 * An outbox held in memory: the same behaviour as the SQLite outbox without durability, for tests and
 * for embedding the dispatcher where losing queued deliveries on exit is acceptable.
 * @module
 */
import { createAttemptId } from './ids.js';
import {
  selectClaims,
  settleAttempt,
  type AttemptOutcome,
  type ClaimCandidate,
  type AttemptRecord,
  type ClaimedDelivery,
  type ClaimOptions,
  type DeliveryRecord,
  type SettlePolicy,
  type TargetState,
  type WebhookOutbox,
} from './outbox.js';

interface StoredDelivery extends DeliveryRecord {
  leaseToken: string | null;
}

function isClaimable(delivery: StoredDelivery, now: number, leaseNow: number): boolean {
  return (
    delivery.status === 'pending' &&
    delivery.dueAt <= now &&
    (delivery.leaseUntil === null || delivery.leaseUntil <= leaseNow)
  );
}

function earliest(times: number[]): number | undefined {
  return times.length === 0 ? undefined : Math.min(...times);
}

function publicDelivery({ leaseToken: _, ...delivery }: StoredDelivery): DeliveryRecord {
  return delivery;
}

export function createMemoryOutbox(): WebhookOutbox {
  const targets = new Map<string, TargetState>();
  const deliveries = new Map<string, StoredDelivery>();
  // Oldest first; a target's newest attempts are at the end.
  let attempts: AttemptRecord[] = [];

  function fail(delivery: StoredDelivery, at: number): void {
    Object.assign(delivery, { status: 'failed', finishedAt: at, leaseUntil: null, leaseToken: null });
  }

  function prune(targetId: string, keep: number): void {
    const own = attempts.filter((attempt) => attempt.targetId === targetId);
    const dropped = new Set(own.slice(0, Math.max(0, own.length - keep)));
    attempts = attempts.filter((attempt) => !dropped.has(attempt));
    const listed = new Set(attempts.map((attempt) => attempt.deliveryId));
    for (const delivery of deliveries.values()) {
      if (delivery.status !== 'pending' && !listed.has(delivery.id)) {
        deliveries.delete(delivery.id);
      }
    }
  }

  return {
    saveTarget({ id, kind, url, secret, events, schedule, workspaceId }) {
      const current = targets.get(id);
      targets.set(id, {
        ...{ id, kind, url, secret, events: [...events], schedule },
        ...((workspaceId ?? current?.workspaceId) == null ? {} : { workspaceId: workspaceId ?? current?.workspaceId }),
        consecutiveFailures: current?.consecutiveFailures ?? 0,
        pausedAt: current?.pausedAt ?? null,
      });
    },
    removeTarget(id) {
      targets.delete(id);
      [...deliveries.values()].filter((d) => d.targetId === id).forEach((d) => deliveries.delete(d.id));
      attempts = attempts.filter((attempt) => attempt.targetId !== id);
    },
    getTarget(id) {
      const target = targets.get(id);
      return target && { ...target };
    },
    subscribersOf(event) {
      return [...targets.values()]
        .filter((t) => t.kind === 'subscription' && t.pausedAt === null && t.events.includes(event))
        .map((t) => ({ ...t }));
    },
    enable(id) {
      const target = targets.get(id);
      if (target !== undefined) {
        Object.assign(target, { consecutiveFailures: 0, pausedAt: null });
      }
      return target !== undefined;
    },
    enqueue(delivery) {
      const target = targets.get(delivery.targetId);
      if (target === undefined || target.pausedAt !== null) {
        return false;
      }
      deliveries.set(delivery.id, {
        ...delivery,
        status: 'pending',
        attemptsMade: 0,
        dueAt: delivery.createdAt,
        leaseUntil: null,
        leaseToken: null,
        finishedAt: null,
      });
      return true;
    },
    claimDue(now: number, options: ClaimOptions): ClaimedDelivery[] {
      const leaseNow = options.leaseNow ?? now;
      const due = [...deliveries.values()]
        .filter((d) => isClaimable(d, now, leaseNow))
        .sort((a, b) => a.dueAt - b.dueAt);
      const candidates: ClaimCandidate[] = [];
      for (const delivery of due) {
        const target = targets.get(delivery.targetId);
        if (target === undefined || target.pausedAt !== null) {
          fail(delivery, now);
        } else {
          candidates.push({ delivery: publicDelivery(delivery), target: { ...target } });
        }
      }
      const claims: ClaimedDelivery[] = [];
      for (const { delivery, target } of selectClaims(candidates, options)) {
        const attemptId = createAttemptId();
        const leaseUntil = leaseNow + options.leaseMs;
        Object.assign(deliveries.get(delivery.id) as StoredDelivery, { leaseUntil, leaseToken: attemptId });
        claims.push({ delivery: { ...delivery, leaseUntil }, target, attempt: delivery.attemptsMade + 1, attemptId });
      }
      return claims;
    },
    recordAttempt(outcome: AttemptOutcome, policy: SettlePolicy) {
      const delivery = deliveries.get(outcome.deliveryId);
      const target = delivery && targets.get(delivery.targetId);
      if (delivery?.status !== 'pending' || delivery.leaseToken !== outcome.attemptId || target === undefined) {
        return undefined;
      }
      const settlement = settleAttempt(target, outcome, policy);
      attempts.push({
        id: outcome.attemptId,
        deliveryId: delivery.id,
        targetId: target.id,
        event: delivery.event,
        attempt: outcome.attempt,
        status: settlement.status,
        responseCode: outcome.responseCode,
        error: outcome.error,
        attemptedAt: outcome.attemptedAt,
        nextRetryAt: settlement.nextRetryAt,
        durationMs: outcome.durationMs,
      });
      Object.assign(delivery, { attemptsMade: outcome.attempt, leaseUntil: null, leaseToken: null });
      if (settlement.delivery === 'pending') {
        delivery.dueAt = settlement.nextRetryAt ?? outcome.finishedAt;
      } else {
        Object.assign(delivery, { status: settlement.delivery, finishedAt: outcome.finishedAt });
      }
      target.consecutiveFailures = settlement.consecutiveFailures;
      if (settlement.pauses) {
        target.pausedAt = outcome.finishedAt;
        [...deliveries.values()]
          .filter((d) => d.targetId === target.id && d.status === 'pending' && d.leaseToken === null)
          .forEach((d) => fail(d, outcome.finishedAt));
      }
      prune(target.id, policy.keepAttempts);
      return settlement;
    },
    nextDueAt(isBusy = () => false) {
      const free = (d: StoredDelivery): boolean => {
        const target = targets.get(d.targetId);
        return d.status === 'pending' && d.leaseUntil === null && target !== undefined && !isBusy(target);
      };
      return earliest([...deliveries.values()].filter(free).map((d) => d.dueAt));
    },
    nextLeaseExpiry() {
      return earliest(
        [...deliveries.values()].flatMap((d) =>
          d.status === 'pending' && d.leaseUntil !== null ? [d.leaseUntil] : [],
        ),
      );
    },
    releaseLeases() {
      const held = [...deliveries.values()].filter((d) => d.status === 'pending' && d.leaseUntil !== null);
      held.forEach((d) => Object.assign(d, { leaseUntil: null, leaseToken: null }));
      return held.length;
    },
    getDelivery(id) {
      const delivery = deliveries.get(id);
      return delivery && publicDelivery(delivery);
    },
    listAttempts(targetId, limit = 100) {
      return attempts
        .filter((attempt) => attempt.targetId === targetId)
        .reverse()
        .slice(0, limit)
        .map((attempt) => ({ ...attempt }));
    },
  };
}
