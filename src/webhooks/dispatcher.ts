/**
 * The webhook dispatcher: takes due deliveries from the outbox, POSTs them and settles each attempt
 * (seed "Delivery, retry and pause"). Time comes from an injected clock and timer, so tests move time
 * instead of waiting. Leases have a clock and timer of their own: an attempt lasts real time (its timeout
 * is real), so a lease measured on a sped-up clock could run out while the attempt is still in flight.
 * Concurrency is bounded twice: in all, and per target, so that one slow receiver holds back only its own
 * deliveries.
 * @module
 */
import { postDelivery, signedHeaders, type PostInput, type PostResult } from './delivery-request.js';
import { bodyForAttempt, eventOf, type AnyWebhookEnvelope } from './events.js';
import { createDeliveryId } from './ids.js';
import type { ClaimedDelivery, Settlement, WebhookOutbox } from './outbox.js';
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
  /** `x-webhook-delivery.attempt_timeout_seconds`: 10 s. */
  attemptTimeoutMs?: number;
  /** How long a claimed delivery stays taken before it is due again; must exceed the attempt timeout. */
  leaseMs?: number;
  /** The clock leases are measured on; `clock` by default. Give real time when `clock` is sped up. */
  leaseClock?: Clock;
  /** Wakes the dispatcher when a lease runs out, on `leaseClock`; `timer` by default. */
  leaseTimer?: Timer;
  concurrency?: number;
  perTargetConcurrency?: number;
  /** Seed "Limits": 10 consecutive failed deliveries pause a subscription. */
  pauseAfter?: number;
  /** Seed "Limits": the last 100 attempts per subscription are kept. */
  keepAttempts?: number;
  onPaused?(targetId: string, at: number): void;
  onSettled?(claim: ClaimedDelivery, settlement: Settlement): void;
  onError?(error: unknown): void;
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
    attemptTimeoutMs = 10_000,
    leaseMs = 6 * attemptTimeoutMs,
    concurrency = 16,
    perTargetConcurrency = 2,
    pauseAfter = 10,
    keepAttempts = 100,
    onError = (error: unknown) => process.emitWarning(error instanceof Error ? error : String(error)),
  } = options;
  const leaseClock = options.leaseClock ?? clock;
  const stampClock = options.stampClock ?? clock;
  const leaseTimer = options.leaseTimer ?? timer;
  const inFlightByTarget = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let started = false;
  let wakeUp: unknown;
  let leaseWakeUp: unknown;

  async function attempt(claim: ClaimedDelivery): Promise<void> {
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
  }

  function launch(claim: ClaimedDelivery): void {
    const targetId = claim.target.id;
    inFlightByTarget.set(targetId, (inFlightByTarget.get(targetId) ?? 0) + 1);
    const task: Promise<void> = attempt(claim)
      .catch(onError)
      .finally(() => {
        const left = (inFlightByTarget.get(targetId) ?? 1) - 1;
        if (left === 0) {
          inFlightByTarget.delete(targetId);
        } else {
          inFlightByTarget.set(targetId, left);
        }
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
    // A target at its limit is woken by its own attempts ending; its queue must not hide the next retry
    // of another target, or one receiver that hangs would hold back the schedule of every other.
    const busy = [...inFlightByTarget].filter(([, count]) => count >= perTargetConcurrency).map(([targetId]) => targetId);
    const next = outbox.nextDueAt(busy);
    if (next !== undefined && !(next <= clock.now() && running.size > 0)) {
      wakeUp = timer.set(() => {
        wakeUp = undefined;
        pump();
      }, Math.max(next - clock.now(), 0));
    }
    const leaseEnds = outbox.nextLeaseExpiry();
    if (leaseEnds !== undefined && !(leaseEnds <= leaseClock.now() && running.size > 0)) {
      leaseWakeUp = leaseTimer.set(() => {
        leaseWakeUp = undefined;
        pump();
      }, Math.max(leaseEnds - leaseClock.now(), 0));
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
          inFlight: inFlightByTarget,
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
