/**
 * Starting and stopping the reference server: the store, the clock, the services, the HTTP app, and
 * the background work (session runs, webhook deliveries) that resumes from the store after a restart.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import { loadContract } from '../contract/load.js';
import { retryScheduleNames, type RetryScheduleName } from '../webhooks/retry.js';
import { buildApp } from './app.js';
import { defaultClientLimits, type ClientLimits } from './client-limits.js';
import { isScaledClock, type Clock } from './clock.js';
import { flooredScaledClock } from './clock-floor.js';
import { handlers } from './handlers/index.js';
import { connectDemoTools } from './integrations.js';
import { configureLegacyWebhooks, type LegacyWebhook, type LegacyWebhookSetting } from './legacy-webhooks.js';
import { checkForwardUrl, type ForwardSetting, type Forwarding } from './forward-webhooks.js';
import { provisionKeys, type ProvisionedKey } from './provisioning.js';
import type { ResponseViolation } from './response-validation.js';
import { createServices, type Services } from './services.js';
import type { SqliteDatabase } from './store/database.js';
import { createStore } from './store/index.js';
import type { Tier } from './store/workspaces.js';
import type { EnvelopeForm } from '../webhooks/events.js';
import type { TestControl } from '../test-control/index.js';

export type { RetryScheduleName } from '../webhooks/retry.js';

export type { EnvelopeForm };

export interface ServerOptions {
  /** A database file, `:memory:`, or an open better-sqlite3 database. Default `:memory:`. */
  db?: string | SqliteDatabase;
  host?: string;
  /** `0` picks a free port. */
  port?: number;
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

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const document = loadContract();
  // Checked before anything starts: a refused URL leaves nothing behind.
  const forwarding = options.forwardWebhooks === undefined ? undefined : await checkForwardUrl(options.forwardWebhooks);
  const store = createStore(options.db ?? ':memory:', { keptSessions: options.keptSessions });
  const { clock, stop: stopClock }: { clock: Clock; stop: () => void } =
    options.clock === undefined
      ? flooredScaledClock(store, options.timeScale ?? 1)
      : { clock: options.clock, stop: () => undefined };
  let baseUrl = '';
  const onError = options.onError ?? ((error: unknown) => process.stderr.write(`boardkit serve: ${String(error)}\n`));
  const settings = {
    heartbeatMs: 15_000,
    region: 'US-East',
    allowPrivateWebhookUrls: options.allowPrivateWebhookUrls ?? false,
    allowLoopbackWebhookUrls: options.allowLoopbackWebhookUrls ?? false,
    forwardWebhooks: forwarding,
    retrySchedule: retryScheduleNames[options.webhookRetries ?? 'four-waits'],
    webhookEnvelope: options.webhookEnvelope ?? 'seed',
  };
  const testControl =
    options.testControl === true
      ? await startTestControl(
          clock,
          () => services,
          () => keys,
        )
      : undefined;
  const services = createServices(
    document,
    store,
    clock,
    settings,
    () => baseUrl,
    onError,
    testControl?.postDelivery,
    options.wallClock,
  );
  const provisioned = provisionKeys(store, options.apiKeys ?? [], {
    tier: options.tier ?? 'ultra',
    ...(options.startingCredits === undefined ? {} : { startingCredits: options.startingCredits }),
    apiVersion: services.versions.current,
    now: clock.now(),
    onWorkspaceCreated: (workspace) => connectDemoTools(document, store, workspace.id, clock.now()),
  });
  const legacyWebhooks = configureLegacyWebhooks(
    store,
    services.webhooks.outbox,
    options.legacyWebhooks ?? [],
    settings.retrySchedule,
  );
  // Workspace A's key first: the given keys in their order, or the one this start made up.
  const keys = (options.apiKeys ?? []).length > 0 ? (options.apiKeys ?? []) : provisioned.map((key) => key.secret);
  const violations: ResponseViolation[] = [];
  const app = buildApp({
    services,
    handlers,
    validateResponses: options.validateResponses ?? false,
    onResponseViolation: (violation) => violations.push(violation),
    onError,
    clientLimits: { ...defaultClientLimits, ...options.clientLimits },
    ...(testControl === undefined ? {} : { seams: testControl.appSeams() }),
  });
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    // A port in use or an address the machine lacks: nothing has started but the store and the clock's
    // floor, which a caller that goes on (a test, a program embedding the server) must not be left holding.
    await app.close();
    stopClock();
    store.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // Work recorded before a restart carries on: runs publish their pending steps when due, outcomes
  // still being written become ready, and due webhook deliveries are attempted.
  services.store.idempotency.purgeExpired(clock.now());
  services.runs.resumeAll();
  services.outcomes.resumeAll();
  services.webhooks.dispatcher.start();
  // The validator is built on first use; build it now, before the first request needs it.
  setImmediate(() => void services.validator);

  return {
    baseUrl,
    provisioned,
    legacyWebhooks,
    forwarding,
    services,
    app,
    violations,
    /**
     * Stops taking requests, then the background work; attempts in flight are settled before the store
     * closes. Runs and pending outcomes stay recorded and carry on at the next start.
     */
    async close() {
      services.webhooks.dispatcher.stop();
      await app.close();
      services.runs.stopAll();
      services.outcomes.stopAll();
      await services.webhooks.dispatcher.idle();
      stopClock();
      store.close();
    },
  };
}

/**
 * The control plane drives the clock: it must be one whose speed can change and that can jump. It is
 * loaded only when asked for, so a server started without it never loads its code.
 */
async function startTestControl(
  clock: Clock,
  services: () => Services,
  keys: () => readonly string[],
): Promise<TestControl> {
  if (!isScaledClock(clock)) {
    throw new Error("the test control needs the server's scaled clock; start it without a clock of your own");
  }
  const { createTestControl } = await import('../test-control/index.js');
  return createTestControl({ clock, services, keys });
}
