/**
 * What every layer of the server works with: `Services`, the object a handler is given, and the
 * interface of each of its parts (the clock, cursors, problems, versions, rate limits, webhook events,
 * session changes, the run driver, outcome generation). Types only, importing nothing of the server
 * (docs/architecture.md): `core/`, `store/` and `domain/` implement them, and `server.ts` assembles them once.
 * @module
 */
import type { BoardStep, RunInput } from '../../board/debate.js';
import type { BoardSummary } from '../../board/summary.js';
import type { SendMessageRequest } from '../../board/types.js';
import type { OpenApiDocument } from '../../contract/load.js';
import type { ContractValidator } from '../../contract/validator.js';
import type { components } from '../../generated/openapi.js';
import type { WebhookDispatcher } from '../../webhooks/dispatcher.js';
import type { EnvelopeForm, WebhookEventData, WebhookEventName } from '../../webhooks/events.js';
import type { WebhookOutbox } from '../../webhooks/outbox.js';
import type { RetrySchedule } from '../../webhooks/retry.js';
import type { Tier, Workspace } from './records.js';
import type { Store } from './store.js';

/** A pending timer; `cancel` is idempotent. */
export interface ClockTimer {
  cancel(): void;
}

/** Simulated time, which `--time-scale` speeds up and tests drive by hand (src/server/core/clock.ts). */
export interface Clock {
  /** Simulated time in epoch milliseconds. */
  now(): number;
  /** Calls `callback` once `delayMs` of simulated time has passed. */
  setTimer(delayMs: number, callback: () => void): ClockTimer;
}

/** Signs and reads list cursors (seed "Endpoints": `cursor` in, `next_cursor` out). */
export interface CursorCodec {
  encode(list: string, position: unknown): string;
  /** The position a cursor holds; `404 not-found` when this list did not issue it. */
  decode(list: string, cursor: string): unknown;
}

export type ProblemBody = components['schemas']['Problem'];

/** RFC 9457 problems from the contract's catalogue (`x-problem-types`). */
export interface ProblemCatalogue {
  /** The problem body for a status: `type`, `title` and `status` from the catalogue. */
  body(status: number, detail: string, extensions?: Record<string, unknown>, instance?: string): ProblemBody;
  /** The slug of a status (`409` → `conflict`). */
  slugOf(status: number): string;
}

/** The date versions of `x-api-versions` (seed "Versioning" 4). */
export interface ApiVersions {
  current: string;
  supported: readonly string[];
  /**
   * The version a request is processed as: its pin, or the workspace's default. An unknown or malformed
   * pin is `400 invalid-request`.
   */
  negotiate(pin: string | string[] | undefined, fallback?: string): string;
}

/** The buckets of the contract's `x-rate-limit-buckets`; an operation names its own (`x-rate-limit-bucket`). */
export type RateLimitBucket = 'starts' | 'messages' | 'reads';

export interface RateLimitDecision {
  headers: Record<string, string>;
}

/** Rate limits per key and bucket (seed "Limits"). */
export interface RateLimiter {
  /** The quota of a bucket for a tier, per window. */
  quota(bucket: RateLimitBucket, tier: Tier): number;
  /** Counts a request; raises `429 rate-limited` (with `Retry-After`) once the window's quota is spent. */
  hit(subject: string, bucket: RateLimitBucket, tier: Tier, now: number): RateLimitDecision;
  /** Forgets the requests counted so far (a data reset brings the quotas back with the data). */
  forget(): void;
}

/** Wakes long polls and open streams when a session changes. */
export interface SessionChanges {
  notify(sessionId: string): void;
  /** Wakes every waiter, of whatever session: the data under all of them changed (a data reset). */
  notifyAll(): void;
  /**
   * Resolves at the next `notify` of the session, or when `signal` aborts. Take the promise before
   * reading the state it guards, so that a change between the read and the wait is not missed.
   */
  next(sessionId: string, signal: AbortSignal): Promise<void>;
}

/** Where `--forward-webhooks` delivers every event, and the secret its deliveries are signed with. */
export interface Forwarding {
  url: string;
  secret: string;
}

/** Webhook events of the service (seed "Events"), queued in the durable outbox of src/webhooks. */
export interface WebhookEvents {
  outbox: WebhookOutbox;
  dispatcher: WebhookDispatcher;
  /** The envelope of a subscription that chose none (`boardkit serve --webhook-envelope`; `seed` by default). */
  defaultEnvelope: EnvelopeForm;
  /** Queues `event` for every subscription of the workspace that lists it and is not paused. */
  emit<E extends WebhookEventName>(
    workspace: Workspace,
    event: E,
    data: WebhookEventData<E>,
    correlationId?: string,
  ): number;
  /**
   * Queues `session.complete` like `emit`, and the same body for the legacy webhook URL of the key the
   * session was started with, when that key has one (seed "Legacy per-key webhook (deprecated)").
   */
  emitSessionComplete(
    workspace: Workspace,
    startedWithKeyId: string | null,
    data: WebhookEventData<'session.complete'>,
  ): number;
}

export interface RunDriver {
  /**
   * Starts a run for a session (inside the caller's transaction). A `created` session's board convenes
   * first; a `continued` one's first step is scheduled at once.
   */
  begin(sessionId: string, input: RunInput): void;
  /**
   * Takes a message into the round in progress (board errors propagate: 409 too late). A Synth off the
   * board is refused before, by the handler, as a conflict with the session's lineup (409, not the board's 400).
   */
  sendMessage(sessionId: string, message: SendMessageRequest): { round: number };
  /**
   * Publishes every step left of a run at once, its end (memo or failure) replaced by the decision
   * `decide` makes of it: a session completed from a test reads as one whose run ran to its memo.
   * `false` when no run is in progress.
   */
  finish(sessionId: string, decide: (end: RunEnd) => Extract<BoardStep, { kind: 'decided' }>): boolean;
  /** Rounds the run has completed so far. */
  completedRounds(sessionId: string): number;
  /** Stops a run and returns the summary as it stands; `undefined` when no run was in progress. */
  cancel(sessionId: string): BoardSummary | undefined;
  /** Picks up every run in progress recorded in the store (on start). */
  resumeAll(): void;
  /** Drops the timers (on shutdown); the runs stay recorded and resume on the next start. */
  stopAll(): void;
}

/** The last step of a run: its memo, or the failure its markers asked for. */
export type RunEnd = Extract<BoardStep, { kind: 'decided' | 'failed' }>;

export interface OutcomeGeneration {
  /** Schedules the outcome to become ready at `dueAt`. */
  schedule(outcomeId: string, dueAt: number): void;
  /** Schedules every outcome still pending in the store (on start). */
  resumeAll(): void;
  /** Drops the timers (on shutdown); the pending outcomes stay recorded and resume on the next start. */
  stopAll(): void;
}

export interface ServiceSettings {
  /** Simulated milliseconds between heartbeat comments on an idle stream (the contract says 15 s). */
  heartbeatMs: number;
  /** The region that answers, reported by the health probe (seed "What the service does" 9). */
  region: string;
  /** Deliver webhooks to private and loopback addresses (local testing only); every URL is accepted anyway. */
  allowPrivateWebhookUrls: boolean;
  /** Deliver webhooks to loopback addresses, other private ones still refused (local testing only). */
  allowLoopbackWebhookUrls?: boolean;
  /** Also deliver every event to this local URL (`--forward-webhooks`). */
  forwardWebhooks?: Forwarding | undefined;
  /** The published retry schedule every new subscription follows (seed "Delivery, retry and pause" 2). */
  retrySchedule: RetrySchedule;
  /** The envelope of a webhook subscription that chose none; `seed` by default. */
  webhookEnvelope?: EnvelopeForm;
}

export interface Services {
  document: OpenApiDocument;
  validator: ContractValidator;
  problems: ProblemCatalogue;
  versions: ApiVersions;
  rateLimits: RateLimiter;
  cursors: CursorCodec;
  clock: Clock;
  /** Real time whatever the scale: what a client times with its own clock (`wait_ms`, signature timestamps). */
  wallClock: Clock;
  store: Store;
  settings: ServiceSettings;
  webhooks: WebhookEvents;
  /** Wakes long polls and streams when a session changes. */
  changes: SessionChanges;
  runs: RunDriver;
  outcomes: OutcomeGeneration;
  /** `{base_url}`: where the server is reached, e.g. `http://127.0.0.1:8080`. Known once it listens. */
  baseUrl(): string;
}
