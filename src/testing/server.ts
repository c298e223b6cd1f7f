/**
 * `startServer`: the reference server inside a test suite. It runs in the calling process on a free
 * loopback port and an in-memory store, so a test needs no CLI process, no fixed port and no files, and
 * `close()` gives back every socket, timer and database handle it took.
 * @module
 */
import type { components } from '../generated/openapi.js';
import type { EnvelopeForm } from '../webhooks/events.js';
import type { RetryScheduleName } from '../webhooks/retry.js';
import type { SeedData as ServerSeed } from '../server/domain/seed-data/file.js';
import { serverControl, type ServerControl } from './controls.js';

// The public types name nothing of the server's own modules, so a user's compiler reads no declaration
// of Fastify or SQLite through them.
export type { EnvelopeForm, RetryScheduleName };
export type Tier = components['schemas']['Credits']['tier'];

/**
 * Seed data (docs/testing.md "Seed data"; JSON Schema `schemas/seed.schema.json` of the package):
 * workspaces with their keys, tier and credits, and sessions started and moved to a state.
 */
export interface SeedData {
  workspaces: Array<{
    /** The workspace's keys (`sk_test_…`); its sessions are started with the first. */
    api_keys: string[];
    tier?: Tier;
    /** The balance the pool starts with, before its sessions are charged. */
    credits?: number;
    sessions?: Array<{
      /** The body of `POST /v1/sessions`. */
      start: components['schemas']['StartSessionRequest'];
      /** `running` (the default) leaves the run going. */
      state?: 'running' | 'complete' | 'failed' | 'cancelled';
      /** For `complete`: the verdict and any other member of the memo. */
      memo?: { verdict: string } & Partial<components['schemas']['Memo']>;
      /** For `failed`. */
      error?: components['schemas']['SessionError'];
      /** For `cancelled`. */
      reason?: string;
    }>;
  }>;
}

/** A response the server sent that broke the contract. */
export interface ResponseViolation {
  operationId: string;
  status: number;
  /** What the contract's validation reported. */
  problems: string[];
}

export interface TestServerOptions {
  /** `0` (the default) picks a free port. */
  port?: number;
  /** The address to bind; loopback by default. */
  host?: string;
  /** A SQLite file to keep the data in; in memory (nothing written to disk) by default. */
  db?: string;
  /**
   * Keys to provision, each in its own workspace. By default two new test keys: the first for the
   * workspace under test, the second for another workspace (what isolation checks need); none when
   * `seed` is given.
   */
  apiKeys?: readonly string[];
  /** The tier of the provisioned workspaces (`ultra` by default, as `boardkit serve --tier`). */
  tier?: Tier;
  /** The credit balance each provisioned workspace starts with (10,000 by default). */
  credits?: number;
  /** Simulated time runs this many times faster (1 by default, as `boardkit serve --time-scale`). */
  timeScale?: number;
  /** The published retry schedule of webhook deliveries (`four-waits` by default). */
  webhookRetries?: RetryScheduleName;
  /** The envelope of a subscription that chose none (`seed` by default). */
  webhookEnvelope?: EnvelopeForm;
  /**
   * Deliver webhooks to loopback addresses, where a test's receiver listens. On by default here, unlike
   * `boardkit serve`: a server started by a test talks to that test's machine only.
   */
  allowLoopbackWebhooks?: boolean;
  /** Deliver webhooks to any private address too (off by default). */
  allowPrivateWebhookUrls?: boolean;
  /**
   * The conformance suite's control plane (`boardkit serve --test-control`): the clock and the fault
   * switches under `/_test`, which let `runConformance` check what needs the server's clock.
   */
  testControl?: boolean;
  /**
   * The controls for client teams (`boardkit serve --client-controls`, under `/_controls/v1`), used through
   * `control`: the request journal, faults for the next requests, session states, the clock, a reset.
   */
  controls?: boolean;
  /**
   * Data to load at start, as `boardkit serve --seed`: a JSON or YAML file, or its content. A seed that
   * does not fit its schema rejects the start with the member that is wrong.
   */
  seed?: string | SeedData;
  /** Check every response against the contract; a violation is kept in `violations()`. On by default. */
  validateResponses?: boolean;
  /** Errors of background work (a failed webhook attempt is not one); dropped by default. */
  onError?: (error: unknown) => void;
}

export interface TestServer {
  /** `{base_url}`: `${baseUrl}/v1/sessions` is the sessions collection. */
  readonly baseUrl: string;
  /**
   * The provisioned keys, in order: `apiKeys[0]` for the workspace under test; then the first key of each
   * workspace of the seed data.
   */
  readonly apiKeys: readonly string[];
  /**
   * The client-team controls, over HTTP to `/_controls/v1`; each call fails unless the server was started
   * with `controls: true`.
   */
  readonly control: ServerControl;
  /** Responses the server sent that broke the contract (empty unless something is wrong). */
  violations(): readonly ResponseViolation[];
  /** Stops the server and frees everything it holds; safe to call twice. */
  close(): Promise<void>;
}

export async function startServer(options: TestServerOptions = {}): Promise<TestServer> {
  // Loaded on use: importing `boardkit` for its types or signing functions must not load the server.
  const [{ startServer: startReferenceServer }, { generateSecret }] = await Promise.all([
    import('../server/server.js'),
    import('../server/store/api-keys.js'),
  ]);
  const apiKeys =
    options.apiKeys ?? (options.seed === undefined ? [generateSecret('test'), generateSecret('test')] : []);
  const server = await startReferenceServer({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    db: options.db ?? ':memory:',
    apiKeys,
    ...(options.tier === undefined ? {} : { tier: options.tier }),
    ...(options.credits === undefined ? {} : { startingCredits: options.credits }),
    timeScale: options.timeScale ?? 1,
    ...(options.webhookRetries === undefined ? {} : { webhookRetries: options.webhookRetries }),
    ...(options.webhookEnvelope === undefined ? {} : { webhookEnvelope: options.webhookEnvelope }),
    allowLoopbackWebhookUrls: options.allowLoopbackWebhooks ?? true,
    allowPrivateWebhookUrls: options.allowPrivateWebhookUrls ?? false,
    testControl: options.testControl ?? false,
    clientControls: options.controls ?? false,
    ...(options.seed === undefined ? {} : { seed: options.seed as ServerSeed }),
    validateResponses: options.validateResponses ?? true,
    onError: options.onError ?? (() => undefined),
  });
  let closing: Promise<void> | undefined;
  return {
    baseUrl: server.baseUrl,
    apiKeys: [...apiKeys, ...server.seeded.map((key) => key.secret)],
    control: serverControl(server.baseUrl),
    violations: () => [...server.violations],
    close: () => (closing ??= server.close()),
  };
}
