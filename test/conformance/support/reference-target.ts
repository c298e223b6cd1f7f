/**
 * The reference server as a conformance target: started in this process on 127.0.0.1 with an in-memory
 * SQLite store, two keys in two workspaces, time sped up, the test-only control plane on (the time
 * control and the fault switches, served by the server itself), and webhooks delivered to loopback.
 */
import { startServer, type EnvelopeForm, type RunningServer } from '../../../src/server/server.js';
import type { RetryScheduleName } from '../../../src/webhooks/retry.js';

export const keyA = 'sk_test_conformanceworkspacea0001';
export const keyB = 'sk_test_conformanceworkspaceb0002';

export interface ReferenceTarget {
  baseUrl: string;
  server: RunningServer;
  close(): Promise<void>;
}

export interface ReferenceTargetOptions {
  timeScale?: number;
  /** The seed's retry schedule the server follows (four waits by default). */
  webhookRetries?: RetryScheduleName;
  /** The envelope of the suite's subscriptions, which choose none: the seed's (default) or the published one. */
  webhookEnvelope?: EnvelopeForm;
}

export async function startReferenceTarget(options: ReferenceTargetOptions = {}): Promise<ReferenceTarget> {
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    db: ':memory:',
    apiKeys: [keyA, keyB],
    timeScale: options.timeScale ?? 250,
    ...(options.webhookRetries === undefined ? {} : { webhookRetries: options.webhookRetries }),
    testControl: true,
    // The suite's receiver listens on loopback; every other private address stays refused, and HOOK-011
    // names the receiver by 0.0.0.0, which the guard refuses even so.
    allowLoopbackWebhookUrls: true,
    onError: () => undefined,
    ...(options.webhookEnvelope === undefined ? {} : { webhookEnvelope: options.webhookEnvelope }),
  });
  return { baseUrl: server.baseUrl, server, close: () => server.close() };
}
