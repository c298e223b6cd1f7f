/**
 * The server's services, built once and shared by every handler.
 * @module
 */
import type { OpenApiDocument } from '../contract/load.js';
import type { PostAttempt } from '../webhooks/dispatcher.js';
import type { RetrySchedule } from '../webhooks/retry.js';
import { createContractValidator, type ContractValidator } from '../contract/validator.js';
import { apiVersions, type ApiVersions } from './api-version.js';
import { wallClock as realWallClock, type Clock } from './clock.js';
import type { Forwarding } from './forward-webhooks.js';
import { cursorCodec, type CursorCodec } from './pagination.js';
import { problemCatalogue, type ProblemCatalogue } from './problems.js';
import { rateLimiter, type RateLimiter } from './rate-limit.js';
import { memoryWindows } from './rate-limit-windows.js';
import type { Store } from './store/index.js';
import { webhookEvents, type WebhookEvents } from './webhook-events.js';
import type { EnvelopeForm } from '../webhooks/events.js';
import { sessionChanges, type SessionChanges } from './sessions/changes.js';
import { runDriver, type RunDriver } from './sessions/run-driver.js';
import { outcomeGeneration, type OutcomeGeneration } from './sessions/outcome-generation.js';

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

export function createServices(
  document: OpenApiDocument,
  store: Store,
  clock: Clock,
  settings: ServiceSettings,
  baseUrl: () => string,
  onError: (error: unknown) => void,
  /** Sends each webhook attempt in place of the dispatcher (the test-only fault switches). */
  postDelivery?: PostAttempt,
  wallClock: Clock = realWallClock,
): Services {
  const base = {
    document,
    problems: problemCatalogue(document),
    versions: apiVersions(document),
    rateLimits: rateLimiter(document, memoryWindows()),
    cursors: cursorCodec(store.meta.cursorSecret()),
    clock,
    wallClock,
    store,
    settings,
    webhooks: webhookEvents(store, clock, {
      stampClock: wallClock,
      allowPrivate: settings.allowPrivateWebhookUrls,
      allowLoopback: settings.allowLoopbackWebhookUrls === true,
      onError,
      post: postDelivery,
      forward: settings.forwardWebhooks,
      ...(settings.webhookEnvelope === undefined ? {} : { defaultEnvelope: settings.webhookEnvelope }),
    }),
    baseUrl,
    changes: sessionChanges(),
  };
  // The run driver and the outcome writer work on the services they are part of; they read them only
  // when they run, after this function has returned.
  let validator: ContractValidator | undefined;
  const services: Services = {
    ...base,
    /**
     * Built on first use: adding the whole document to Ajv is the slowest part of start-up, so the server
     * listens first and warms it just after. The bundled contract is checked by the tests and `boardkit
     * lint`, so it is not checked against the meta-schema again here.
     */
    get validator() {
      validator ??= createContractValidator(document, { validateSchema: false });
      return validator;
    },
    get runs() {
      return runs;
    },
    get outcomes() {
      return outcomes;
    },
  };
  const runs = runDriver(services, base.changes, onError);
  const outcomes = outcomeGeneration(services, onError);
  return services;
}
