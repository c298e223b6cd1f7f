/**
 * The webhook dispatcher: takes due deliveries from the outbox, POSTs them and settles each attempt
 * (seed "Delivery, retry and pause"). Time comes from an injected clock and timer, so tests move time
 * instead of waiting. Leases have a clock and timer of their own: an attempt lasts real time (its timeout
 * is real), so a lease measured on a sped-up clock could run out while the attempt is still in flight.
 * Attempts in flight are shared fairly (fair-share.ts): bounded in all, per workspace, per host and per
 * target, so that one workspace's slow or dead receivers hold back only their own deliveries.
 * @module
 */
import { webhookDelivery } from '../contract/extensions.js';
import { loadContract } from '../contract/load.js';
import { postDelivery, signedHeaders, type PostInput, type PostResult } from './delivery-request.js';
import { bodyForAttempt, eventOf, type AnyWebhookEnvelope } from './events.js';
import { createDeliveryId } from './ids.js';
import { createFairShare } from './fair-share.js';
import { type ClaimedDelivery, type Settlement, type WebhookOutbox } from './outbox.js';
import { realClock, realTimer, type Clock, type Timer } from './real-time.js';
import type { ResolveHost } from './url-guard.js';

export type { Clock, Timer } from './real-time.js';

export interface DispatcherOptions {
  outbox: WebhookOutbox;
  clock?: Clock;
  timer?: Timer;
  /**
   * The clock `X-Service-Timestamp` is read from; `clock` by default. A receiver compares the timestamp
   * with its own wall clock (seed verification rule 2), so a server whose `clock` is simulated gives real
   * time here: a signature timestamp is transport, not simulation.
   */
  stampClock?: Clock;
  /** Deliver to private and loopback addresses: for local testing only. */
  allowPrivate?: boolean;
  /** Deliver to loopback addresses, other private ones still refused: for local testing only. */
  allowLoopback?: boolean;
  resolve?: ResolveHost;
  /** `x-webhook-delivery.attempt_timeout_seconds` of the contract by default. */
  attemptTimeoutMs?: number;
  /** How long a claimed delivery stays taken before it is due again; must exceed the attempt timeout. */
  leaseMs?: number;
  /** The clock leases are measured on; `clock` by default. Give real time when `clock` is sped up. */
  leaseClock?: Clock;
  /** Wakes the dispatcher when a lease runs out, on `leaseClock`; `timer` by default. */
  leaseTimer?: Timer;
  /** Attempts in flight in all: 64. */
  concurrency?: number;
  /** Attempts in flight per workspace: 8. */
  perWorkspaceConcurrency?: number;
  /** Attempts in flight per host and port: 8. */
  perHostConcurrency?: number;
  /** Attempts in flight per target while it answers (one after a failure, until a success): 2. */
  perTargetConcurrency?: number;
  /** Seed "Limits": 10 consecutive failed deliveries pause a subscription. */
  pauseAfter?: number;
  /** Seed "Limits": the last 100 attempts per subscription are kept. */
  keepAttempts?: number;
  onPaused?(targetId: string, at: number): void;
  onSettled?(claim: ClaimedDelivery, settlement: Settlement): void;
  onError?: (error: unknown) => void;
  /** Sends each attempt; `postDelivery` by default. */
  post?: PostAttempt;
}

/**
 * Sends one attempt. `postDelivery` does; a test-only seam may stand in to change the attempt on its way
 * (the reference server's fault switches).
 */
export type PostAttempt = (input: PostInput, claim: ClaimedDelivery) => Promise<PostResult>;

export interface WebhookDispatcher {
  /** Starts delivering: due deliveries now, later ones when the timer says they are due. */
  start(): void;
  /** Stops taking deliveries; attempts in flight finish. */
  stop(): void;
  /** Queues an event for every active subscription listing it; returns the delivery ids. */
  publish(envelope: AnyWebhookEnvelope): string[];
  /** Queues an event for one target (e.g. a legacy key URL); `undefined` if it is unknown, paused or not listening. */
  enqueue(targetId: string, envelope: AnyWebhookEnvelope): string | undefined;
  /** Resolves once no attempt is in flight. */
  idle(): Promise<void>;
}

export function createWebhookDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const {
    outbox,
    clock = realClock,
    timer = realTimer,
    attemptTimeoutMs = webhookDelivery(loadContract()).attemptTimeoutMs,
    leaseMs = 6 * attemptTimeoutMs,
    concurrency = 64,
    perWorkspaceConcurrency = 8,
    perHostConcurrency = 8,
    perTargetConcurrency = 2,
    pauseAfter = 10,
    keepAttempts = 100,
    onError = (error: unknown) => process.emitWarning(error instanceof Error ? error : String(error)),
  } = options;
  const leaseClock = options.leaseClock ?? clock;
  const stampClock = options.stampClock ?? clock;
  const leaseTimer = options.leaseTimer ?? timer;
  const share = createFairShare({
    concurrency,
    perWorkspace: perWorkspaceConcurrency,
    perHost: perHostConcurrency,
    perTarget: perTargetConcurrency,
  });
  const running = new Set<Promise<void>>();
  let started = false;
  let wakeUp: unknown;
  let leaseWakeUp: unknown;

  /** Whether the receiver answered at all (any status). */
  async function attempt(claim: ClaimedDelivery): Promise<boolean> {
    const { delivery, target } = claim;
    const attemptedAt = clock.now();
    // Signed as sent: a published-form body carries this attempt's number.
    const body = bodyForAttempt(delivery.body, claim.attempt);
    const headers = signedHeaders({
      kind: target.kind,
      secret: target.secret,
      event: delivery.event,
      deliveryId: delivery.id,
      timestamp: Math.floor(stampClock.now() / 1000),
      body,
    });
    const post = options.post ?? postDelivery;
    const result = await post(
      {
        url: target.url,
        headers,
        body,
        timeoutMs: attemptTimeoutMs,
        allowPrivate: options.allowPrivate,
        allowLoopback: options.allowLoopback,
        resolve: options.resolve,
      },
      claim,
    );
    const finishedAt = clock.now();
    const { attemptId, attempt: attemptNumber } = claim;
    const settlement = outbox.recordAttempt(
      { attemptId, deliveryId: delivery.id, attempt: attemptNumber, attemptedAt, finishedAt, ...result },
      { pauseAfter, keepAttempts },
    );
    if (settlement !== undefined) {
      options.onSettled?.(claim, settlement);
      if (settlement.pauses) {
        options.onPaused?.(target.id, finishedAt);
      }
    }
    return result.responseCode !== null;
  }

  function launch(claim: ClaimedDelivery): void {
    share.take(claim.target);
    const task: Promise<void> = attempt(claim)
      .catch((error: unknown) => {
        onError(error);
        return false;
      })
      .then((answered) => {
        share.release(claim.target, answered);
        running.delete(task);
        pump();
      });
    running.add(task);
  }

  /**
   * Arms the timers for the next due delivery and the next lease to run out, each on its own clock. Work
   * due already waits for a running attempt to end.
   */
  function rearm(): void {
    if (wakeUp !== undefined) {
      timer.clear(wakeUp);
      wakeUp = undefined;
    }
    if (leaseWakeUp !== undefined) {
      leaseTimer.clear(leaseWakeUp);
      leaseWakeUp = undefined;
    }
    if (!started) {
      return;
    }
    // A target at its limit (or its workspace or host at its share) is woken by its own attempts ending;
    // its queue must not hide the next retry of another target, or one receiver that hangs would hold
    // back the schedule of every other.
    const next = outbox.nextDueAt(share.isBusy);
    if (next !== undefined && !(next <= clock.now() && running.size > 0)) {
      wakeUp = timer.set(
        () => {
          wakeUp = undefined;
          pump();
        },
        Math.max(next - clock.now(), 0),
      );
    }
    const leaseEnds = outbox.nextLeaseExpiry();
    if (leaseEnds !== undefined && !(leaseEnds <= leaseClock.now() && running.size > 0)) {
      leaseWakeUp = leaseTimer.set(
        () => {
          leaseWakeUp = undefined;
          pump();
        },
        Math.max(leaseEnds - leaseClock.now(), 0),
      );
    }
  }

  function pump(): void {
    if (!started) {
      return;
    }
    try {
      const capacity = concurrency - running.size;
      if (capacity > 0) {
        const claims = outbox.claimDue(clock.now(), {
          limit: capacity,
          leaseMs,
          leaseNow: leaseClock.now(),
          perTargetLimit: perTargetConcurrency,
          inFlight: share.byTarget,
          choose: share.choose,
        });
        claims.forEach(launch);
      }
      rearm();
    } catch (error) {
      onError(error);
    }
  }

  function store(targetId: string, envelope: AnyWebhookEnvelope): string | undefined {
    const id = createDeliveryId();
    const stored = outbox.enqueue({
      id,
      targetId,
      event: eventOf(envelope),
      body: JSON.stringify(envelope),
      createdAt: clock.now(),
    });
    return stored ? id : undefined;
  }

  return {
    start() {
      started = true;
      pump();
    },
    stop() {
      started = false;
      rearm();
    },
    publish(envelope) {
      const ids = outbox.subscribersOf(eventOf(envelope)).flatMap((target) => store(target.id, envelope) ?? []);
      pump();
      return ids;
    },
    enqueue(targetId, envelope) {
      const target = outbox.getTarget(targetId);
      const id = target?.events.includes(eventOf(envelope)) ? store(targetId, envelope) : undefined;
      pump();
      return id;
    },
    async idle() {
      while (running.size > 0) {
        await Promise.allSettled([...running]);
      }
    },
  };
}
