/**
 * The durable outbox of webhook deliveries: the storage interface the dispatcher is written against, and
 * the rules that settle an attempt (seed "Delivery, retry and pause"). The rules live here, once, and
 * every storage applies them inside its own transaction, against the target's state at that moment.
 * @module
 */
import type { components } from '../generated/openapi.js';
import type { WebhookEventName } from './events.js';
import { isExhausted, nextAttemptAt, type RetrySchedule } from './retry.js';

/** A webhook subscription, or the deprecated per-key webhook URL of an API key. */
export type TargetKind = 'subscription' | 'legacy';

/** What a delivery needs to know about where it goes. */
export interface TargetSettings {
  /** The subscription id (`wh_…`), or the id of the API key holding a legacy URL. */
  id: string;
  kind: TargetKind;
  url: string;
  secret: string;
  events: readonly WebhookEventName[];
  schedule: RetrySchedule;
  /**
   * The workspace whose deliveries these are: delivery capacity is shared fairly between workspaces
   * (fair-share.ts). A target without one (the forwarding URL) is a share of its own.
   */
  workspaceId?: string | null;
}

/** A target with its breaker (seed "Delivery, retry and pause" 3). */
export interface TargetState extends TargetSettings {
  consecutiveFailures: number;
  /** When the breaker paused the subscription, in ms since the epoch; `null` while active. */
  pausedAt: number | null;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryRecord {
  /** `dlv_…`, sent as the delivery-id header on every attempt. */
  id: string;
  targetId: string;
  event: WebhookEventName;
  /** The JSON body, stored once so that every attempt sends the same bytes. */
  body: string;
  status: DeliveryStatus;
  attemptsMade: number;
  dueAt: number;
  /** While claimed: until when; the delivery is due again afterwards if nobody settled it. */
  leaseUntil: number | null;
  createdAt: number;
  finishedAt: number | null;
}

export type NewDelivery = Pick<DeliveryRecord, 'id' | 'targetId' | 'event' | 'body' | 'createdAt'>;

/** A due delivery taken by one dispatcher until it settles it or the lease runs out. */
export interface ClaimedDelivery {
  delivery: DeliveryRecord;
  target: TargetState;
  /** The number of the attempt to make (1 for the first). */
  attempt: number;
  /** The id of the attempt to make; it also guards the lease (a stale result is not recorded). */
  attemptId: string;
}

export interface ClaimOptions {
  limit: number;
  leaseMs: number;
  /**
   * Now on the clock leases are measured on, when it is not the one `now` reads: the server's retry waits
   * run on simulated time, its leases on real time, because an attempt takes real time whatever the scale.
   */
  leaseNow?: number;
  /** Most attempts in flight to one target, so that a slow receiver holds back only its own deliveries. */
  perTargetLimit: number;
  /** Attempts this dispatcher already has in flight, by target id. */
  inFlight: ReadonlyMap<string, number>;
  /**
   * Picks, from every due delivery within the per-target limit (oldest first), those to take now; `limit`
   * then caps the number. Without it the oldest are taken.
   */
  choose?: (candidates: readonly ClaimCandidate[]) => ClaimCandidate[];
}

/** A due delivery that may be taken, with its target. */
export interface ClaimCandidate {
  delivery: DeliveryRecord;
  target: TargetState;
}

/**
 * The candidates to lease, given every due one in due order: at most `perTargetLimit` in flight per
 * target, then `choose` (fair shares), then `limit`. Both storages apply it inside their claim.
 */
export function selectClaims(candidates: readonly ClaimCandidate[], options: ClaimOptions): ClaimCandidate[] {
  const taken = new Map(options.inFlight);
  const allowed = candidates.filter(({ target }) => {
    const busy = taken.get(target.id) ?? 0;
    taken.set(target.id, busy + 1);
    return busy < options.perTargetLimit;
  });
  return (options.choose?.(allowed) ?? allowed).slice(0, options.limit);
}

export type AttemptStatus = components['schemas']['WebhookDeliveryAttempt']['status'];

/** What happened on the wire during one attempt. */
export interface AttemptOutcome {
  attemptId: string;
  deliveryId: string;
  attempt: number;
  attemptedAt: number;
  finishedAt: number;
  /** The receiver's status; `null` when no response arrived. */
  responseCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface AttemptRecord {
  id: string;
  deliveryId: string;
  targetId: string;
  event: WebhookEventName;
  attempt: number;
  status: AttemptStatus;
  responseCode: number | null;
  error: string | null;
  attemptedAt: number;
  nextRetryAt: number | null;
  durationMs: number;
}

export interface SettlePolicy {
  /** Consecutive failed deliveries that pause a subscription (seed "Limits": 10). */
  pauseAfter: number;
  /** Attempts kept per target (seed "Limits": the last 100). */
  keepAttempts: number;
}

export interface Settlement {
  status: AttemptStatus;
  nextRetryAt: number | null;
  delivery: DeliveryStatus;
  consecutiveFailures: number;
  /** The breaker trips with this attempt. */
  pauses: boolean;
}

export interface WebhookOutbox {
  /** Adds a target or changes its settings; its breaker is kept. */
  saveTarget(settings: TargetSettings): void;
  /** Forgets a target with its deliveries and attempts (the subscription was deleted). */
  removeTarget(id: string): void;
  getTarget(id: string): TargetState | undefined;
  /** Active subscriptions (not paused, not legacy) whose events include `event`. */
  subscribersOf(event: WebhookEventName): TargetState[];
  /** Resets the breaker and resumes deliveries; `false` for an unknown target. */
  enable(id: string): boolean;
  /** Stores a delivery due now; `false` when the target is unknown or paused (nothing is stored). */
  enqueue(delivery: NewDelivery): boolean;
  /**
   * Leases due deliveries, oldest first, within the limits. Due deliveries of a paused target are marked
   * failed instead: events are not delivered after a pause.
   */
  claimDue(now: number, options: ClaimOptions): ClaimedDelivery[];
  /** Settles a claimed attempt; `undefined` when the lease was lost or the target removed meanwhile. */
  recordAttempt(outcome: AttemptOutcome, policy: SettlePolicy): Settlement | undefined;
  /**
   * The earliest time a pending delivery that nobody holds becomes due, leaving out the deliveries of
   * targets `isBusy` names (at their limit of attempts in flight, or their workspace or host at its share:
   * they wake the dispatcher as their attempts end).
   */
  nextDueAt(isBusy?: (target: TargetState) => boolean): number | undefined;
  /** The earliest time a lease on a pending delivery runs out, on the lease clock. */
  nextLeaseExpiry(): number | undefined;
  /**
   * Frees every lease, making the deliveries due again. Only for an owner of the storage that knows no
   * dispatcher holds them, such as a process starting on a database a stopped process left behind.
   */
  releaseLeases(): number;
  getDelivery(id: string): DeliveryRecord | undefined;
  /** A target's kept attempts, newest first. */
  listAttempts(targetId: string, limit?: number): AttemptRecord[];
}

export function isSuccess(responseCode: number | null): boolean {
  return responseCode !== null && responseCode >= 200 && responseCode <= 299;
}

/**
 * The rules of one attempt's result: any 2xx completes the delivery; a failure is retried on the
 * target's schedule, and after the last attempt the delivery fails and counts towards the breaker.
 * A failure while the subscription is paused ends the delivery without a retry (`failed`).
 */
export function settleAttempt(target: TargetState, outcome: AttemptOutcome, policy: SettlePolicy): Settlement {
  const paused = target.pausedAt !== null;
  const keep = { consecutiveFailures: target.consecutiveFailures, pauses: false };
  if (isSuccess(outcome.responseCode)) {
    // A success while paused does not close the breaker: only a re-enable does.
    const consecutiveFailures = paused ? target.consecutiveFailures : 0;
    return { status: 'succeeded', nextRetryAt: null, delivery: 'succeeded', consecutiveFailures, pauses: false };
  }
  if (paused) {
    return { status: 'failed', nextRetryAt: null, delivery: 'failed', ...keep };
  }
  if (!isExhausted(target.schedule, outcome.attempt)) {
    const nextRetryAt = nextAttemptAt(target.schedule, outcome.attempt, outcome.attemptedAt);
    return { status: 'retry_scheduled', nextRetryAt, delivery: 'pending', ...keep };
  }
  if (target.kind === 'legacy') {
    // The breaker belongs to subscriptions (the legacy webhook's description).
    return { status: 'exhausted', nextRetryAt: null, delivery: 'failed', ...keep };
  }
  const consecutiveFailures = Math.min(target.consecutiveFailures + 1, policy.pauseAfter);
  return {
    status: 'exhausted',
    nextRetryAt: null,
    delivery: 'failed',
    consecutiveFailures,
    pauses: consecutiveFailures >= policy.pauseAfter,
  };
}

/** The attempt as the API lists it (`WebhookDeliveryAttempt`). */
export function toAttemptResource(record: AttemptRecord): components['schemas']['WebhookDeliveryAttempt'] {
  return {
    id: record.id,
    delivery_id: record.deliveryId,
    event: record.event,
    attempt: record.attempt,
    status: record.status,
    response_code: record.responseCode,
    error: record.error,
    attempted_at: new Date(record.attemptedAt).toISOString(),
    next_retry_at: record.nextRetryAt === null ? null : new Date(record.nextRetryAt).toISOString(),
    duration_ms: record.durationMs,
  };
}

/** The breaker fields of a `WebhookSubscription`. */
export function breakerFields(
  target: TargetState,
): Pick<components['schemas']['WebhookSubscription'], 'status' | 'consecutive_failures' | 'paused_at'> {
  return {
    status: target.pausedAt === null ? 'active' : 'paused',
    consecutive_failures: target.consecutiveFailures,
    paused_at: target.pausedAt === null ? null : new Date(target.pausedAt).toISOString(),
  };
}
