/**
 * The interfaces every layer of the server works with: the services a handler is given, who is calling,
 * and the background work they start. Types only, assembled once by `server.ts`: the modules that
 * implement them import this one, never the other way, so no import circle runs through it.
 * @module
 */
import type { BoardStep, RunInput } from '../board/debate.js';
import type { BoardSummary } from '../board/summary.js';
import type { SendMessageRequest } from '../board/types.js';
import type { OpenApiDocument } from '../contract/load.js';
import type { ContractValidator } from '../contract/validator.js';
import type { EnvelopeForm } from '../webhooks/events.js';
import type { RetrySchedule } from '../webhooks/retry.js';
import type { Clock } from './core/clock.js';
import type { CursorCodec } from './core/pagination.js';
import type { ProblemCatalogue } from './core/problems.js';
import type { ApiVersions } from './domain/api-version.js';
import type { Forwarding } from './domain/forward-webhooks.js';
import type { RateLimiter } from './domain/rate-limit.js';
import type { SessionChanges } from './domain/sessions/changes.js';
import type { WebhookEvents } from './domain/webhook-events.js';
import type { ApiKey } from './store/api-keys.js';
import type { Store } from './store/index.js';
import type { Workspace } from './store/workspaces.js';

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

export interface ResponseViolation {
  operationId: string;
  status: number;
  problems: string[];
}

export interface Principal {
  workspace: Workspace;
  apiKey: ApiKey;
}

export interface HandlerContext {
  readonly services: Services;
  /** The date version the request is processed as (its pin, or the workspace's default). */
  readonly apiVersion: string;
  /** The caller's workspace. Only operations without security lack one; reading it there is a bug. */
  readonly workspace: Workspace;
  readonly apiKey: ApiKey;
  /** Aborts when the client goes away, so that long polls and streams stop. */
  readonly signal: AbortSignal;
}
