/**
 * What `startServer` takes and what it returns.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import type { EnvelopeForm } from '../webhooks/events.js';
import type { RetryScheduleName } from '../webhooks/retry.js';
import type { ClientLimits, ResponseViolation } from './ports/app.js';
import type { Tier } from './ports/records.js';
import type { Clock, Forwarding, Services } from './ports/services.js';
import type { SqliteDatabase } from './ports/store.js';
import type { ForwardSetting } from './domain/forward-webhooks.js';
import type { LegacyWebhook, LegacyWebhookSetting } from './domain/legacy-webhooks.js';
import type { ProvisionedKey } from './domain/provisioning.js';
import type { SeedData } from './domain/seed-data/file.js';

export interface ServerOptions {
  /** A database file, `:memory:`, or an open better-sqlite3 database. Default `:memory:`. */
  db?: string | SqliteDatabase;
  host?: string;
  /** `0` picks a free port. */
  port?: number;
  /**
   * Seed data loaded at start (docs/testing.md "Seed data"): a JSON or YAML file, or its content, checked
   * against `schemas/seed.schema.json`. Workspaces with their keys, tier and credits, and sessions in a state.
   */
  seed?: string | SeedData;
  /** Keys to provision, each in its own workspace. */
  apiKeys?: readonly string[];
  tier?: Tier;
  /** The credit balance each newly provisioned workspace starts with (default 10,000). */
  startingCredits?: number;
  /** Sessions kept in memory as answers for reads and lists (default 10,000; `0` reads each from the store). */
  keptSessions?: number;
  /** Simulated time runs this many times faster (ignored when `clock` is given). */
  timeScale?: number;
  clock?: Clock;
  /**
   * What a client times with its own clock runs on this one, whatever `timeScale` says: the long-poll wait
   * and webhook signature timestamps (docs/decisions.md). Real time by default; tests may move it by hand.
   */
  wallClock?: Clock;
  /** Check every response against the contract (on in tests). */
  validateResponses?: boolean;
  /** Deliver webhooks to private and loopback addresses (local testing only). */
  allowPrivateWebhookUrls?: boolean;
  /** Deliver webhooks to loopback addresses, other private ones still refused (local testing only). */
  allowLoopbackWebhookUrls?: boolean;
  /** The envelope of a webhook subscription that chose none: the seed's (default) or the published one. */
  webhookEnvelope?: EnvelopeForm;
  /**
   * Serve the test-only control plane (docs/conformance.md "Time control and fault switches"): the clock
   * and the fault switches under `/_test`, announced on the health probe. Never in production.
   */
  testControl?: boolean;
  /**
   * Serve the controls for client teams (docs/testing.md "Client-team controls"): the request journal,
   * faults for the next requests of an operation, session states, the clock and a reset, under
   * `/_controls/v1`. Apart from the test-only control plane; off by default.
   */
  clientControls?: boolean;
  /**
   * The published retry schedule of webhook deliveries, the seed's two variants: four waits (1, 5, 15, 60
   * minutes; the default) or five (with 240). A subscription keeps the schedule it was created with.
   */
  webhookRetries?: RetryScheduleName;
  /** Deprecated per-key webhook URLs, each on a key of this server (kept in the store). */
  legacyWebhooks?: readonly LegacyWebhookSetting[];
  /** Also deliver every event of every workspace to this local URL, signed with its secret. */
  forwardWebhooks?: ForwardSetting;
  onError?: (error: unknown) => void;
  /** Header, request and idle timeouts and the connection cap; the contract's `x-limits` by default. */
  clientLimits?: Partial<ClientLimits>;
}

export interface RunningServer {
  /** `{base_url}`: `{base_url}/v1/sessions` is the sessions collection. */
  baseUrl: string;
  /** The keys provisioned by this start (a fresh store without keys gets one new test key). */
  provisioned: ProvisionedKey[];
  /** The first key of each workspace of the seed data, with its workspace. */
  seeded: ProvisionedKey[];
  /** The legacy webhook URLs this start configured, with their secrets. */
  legacyWebhooks: LegacyWebhook[];
  /** Where every event is forwarded, and the secret its deliveries are signed with. */
  forwarding: Forwarding | undefined;
  services: Services;
  app: FastifyInstance;
  /** Responses that broke the contract (with `validateResponses`). */
  violations: ResponseViolation[];
  close(): Promise<void>;
}
