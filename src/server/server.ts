/**
 * Starting and stopping the reference server: the store, the clock, the services, the HTTP app, and
 * the background work (session runs, webhook deliveries) that resumes from the store after a restart.
 * @module
 */
import { loadContract, type OpenApiDocument } from '../contract/load.js';
import { createContractValidator, type ContractValidator } from '../contract/validator.js';
import type { ClientControls } from '../client-controls/index.js';
import type { TestControl } from '../test-control/index.js';
import type { PostAttempt } from '../webhooks/dispatcher.js';
import { retryScheduleNames } from '../webhooks/retry.js';
import { isScaledClock, wallClock as realWallClock } from './core/clock.js';
import type { AppSeams, ResponseViolation } from './ports/app.js';
import type { Clock, ServiceSettings, Services } from './ports/services.js';
import type { Store } from './ports/store.js';
import { cursorCodec } from './core/pagination.js';
import { problemCatalogue } from './core/problems.js';
import { apiVersions } from './domain/api-version.js';
import { dataReset, type DataReset } from './domain/data-reset.js';
import { checkForwardUrl } from './domain/forward-webhooks.js';
import { connectDemoTools } from './domain/integrations.js';
import { configureLegacyWebhooks } from './domain/legacy-webhooks.js';
import { provisionKeys, type ProvisionedKey } from './domain/provisioning.js';
import { applySeed } from './domain/seed-data/apply.js';
import { checkSeedData, readSeedFile } from './domain/seed-data/file.js';
import { rateLimiter } from './domain/rate-limit.js';
import { sessionChanges } from './domain/sessions/changes.js';
import { outcomeGeneration } from './domain/sessions/outcome-generation.js';
import { runDriver } from './domain/sessions/run-driver.js';
import { webhookEvents } from './domain/webhook-events.js';
import { buildApp } from './http/app.js';
import { defaultClientLimits } from './http/client-limits.js';
import { handlers } from './http/handlers/index.js';
import type { RunningServer, ServerOptions } from './server-options.js';
import { flooredScaledClock } from './store/clock-floor.js';
import { createStore } from './store/index.js';
import { memoryWindows } from './store/rate-limit-windows.js';
import type { Workspace } from './ports/records.js';
import { snapshotStore } from './store/snapshot.js';
import { internalError } from './core/internal-errors.js';

export type { RetryScheduleName } from '../webhooks/retry.js';
export type { EnvelopeForm } from '../webhooks/events.js';
export type { RunningServer, ServerOptions } from './server-options.js';

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const document = loadContract();
  // Read and checked before anything starts: a seed file that does not fit leaves nothing behind.
  const seed =
    options.seed === undefined
      ? undefined
      : typeof options.seed === 'string'
        ? readSeedFile(options.seed)
        : checkSeedData(options.seed, 'seed');
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
  let resetData: DataReset | undefined;
  const clientControls =
    options.clientControls === true
      ? await startClientControls(
          () => services,
          () => resetData ?? missingSnapshot(),
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
  const onWorkspaceCreated = (workspace: Workspace): void =>
    connectDemoTools(document, store, workspace.id, clock.now());
  // With seed data, its keys are the way in: no test key is made up for an empty store.
  const provisioned =
    seed !== undefined && (options.apiKeys ?? []).length === 0
      ? []
      : provisionKeys(store, options.apiKeys ?? [], {
          tier: options.tier ?? 'ultra',
          ...(options.startingCredits === undefined ? {} : { startingCredits: options.startingCredits }),
          apiVersion: services.versions.current,
          now: clock.now(),
          onWorkspaceCreated,
        });
  const legacyWebhooks = configureLegacyWebhooks(
    store,
    services.webhooks.outbox,
    options.legacyWebhooks ?? [],
    settings.retrySchedule,
  );
  // Workspace A's key first: the given keys in their order, the one this start made up, or (set below) the
  // first key of each seeded workspace.
  let keys = (options.apiKeys ?? []).length > 0 ? (options.apiKeys ?? []) : provisioned.map((key) => key.secret);
  const violations: ResponseViolation[] = [];
  const app = buildApp({
    services,
    handlers,
    validateResponses: options.validateResponses ?? false,
    onResponseViolation: (violation) => violations.push(violation),
    onError,
    clientLimits: { ...defaultClientLimits, ...options.clientLimits },
    ...planeSeams(testControl?.appSeams(), clientControls),
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
  // Seeded sessions are started once the server knows its address, which their records and events carry.
  let seeded: ProvisionedKey[];
  try {
    seeded =
      seed === undefined
        ? []
        : applySeed(
            services,
            seed,
            {
              tier: options.tier ?? 'ultra',
              ...(options.startingCredits === undefined ? {} : { credits: options.startingCredits }),
              onWorkspaceCreated,
            },
            typeof options.seed === 'string' ? `seed file ${options.seed}` : 'seed',
          );
  } catch (error) {
    await app.close();
    services.runs.stopAll();
    stopClock();
    store.close();
    throw error;
  }
  if (keys.length === 0) {
    keys = seeded.map((key) => key.secret);
  }
  // What a data reset of the client controls returns to: the start's keys, webhooks and seed data.
  if (clientControls !== undefined) {
    resetData = dataReset(services, snapshotStore(store.db));
  }
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
    seeded,
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
    throw internalError('BOARDKIT_CONFIG_TEST_CONTROL_CLOCK');
  }
  const { createTestControl } = await import('../test-control/index.js');
  return createTestControl({ clock, services, keys });
}

/** The controls for client teams, loaded only when asked for, like the test control. */
async function startClientControls(services: () => Services, resetData: () => DataReset): Promise<ClientControls> {
  const { createClientControls } = await import('../client-controls/index.js');
  return createClientControls(services, resetData);
}

const missingSnapshot = (): never => {
  throw internalError('BOARDKIT_CONTROLS_NO_SNAPSHOT');
};

/**
 * The app's seams for the planes started: the client controls add only routes and hooks (registered
 * first, so a queued fault comes before the test faults); the test control also rewrites requests,
 * responses and event streams.
 */
function planeSeams(test: AppSeams | undefined, client: ClientControls | undefined): { seams?: AppSeams } {
  if (client === undefined) {
    return test === undefined ? {} : { seams: test };
  }
  return {
    seams: {
      rewriteUrl: test?.rewriteUrl ?? ((raw) => raw.url ?? '/'),
      register(app) {
        client.register(app);
        test?.register(app);
      },
      onSend: test?.onSend ?? ((_request, _reply, payload) => Promise.resolve(payload)),
      eventStream: (request, text) => (test === undefined ? text : test.eventStream(request, text)),
    },
  };
}

/** The services every handler shares, built once per server. */
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
