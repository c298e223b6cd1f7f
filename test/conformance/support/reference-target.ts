/**
 * The reference server as a conformance target: started in this process on 127.0.0.1 with an in-memory
 * SQLite store, two keys in two workspaces, an adjustable clock, and the mutant proxy in front (the
 * test-only control plane and the fault switches).
 */
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { adjustableClock, type AdjustableClock } from '../../../conformance/mutants/adjustable-clock.js';
import { faults } from '../../../conformance/mutants/index.js';
import { startMutantProxy, type MutantProxy } from '../../../conformance/mutants/proxy.js';

export const keyA = 'sk_test_conformanceworkspacea0001';
export const keyB = 'sk_test_conformanceworkspaceb0002';

export interface ReferenceTarget {
  baseUrl: string;
  server: RunningServer;
  proxy: MutantProxy;
  clock: AdjustableClock;
  close(): Promise<void>;
}

export interface ReferenceTargetOptions {
  timeScale?: number;
  /**
   * Deliver webhooks to loopback (the suite's receiver) and other private addresses. The URL guard check
   * needs it off; every delivery check needs it on.
   */
  allowPrivateWebhookUrls?: boolean;
}

export async function startReferenceTarget(options: ReferenceTargetOptions = {}): Promise<ReferenceTarget> {
  const clock = adjustableClock(options.timeScale ?? 250);
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    db: ':memory:',
    apiKeys: [keyA, keyB],
    clock,
    allowPrivateWebhookUrls: options.allowPrivateWebhookUrls ?? true,
    onError: () => undefined,
  });
  const proxy = await startMutantProxy({ upstream: server.baseUrl, keys: { a: keyA, b: keyB }, clock, faults });
  return {
    baseUrl: proxy.baseUrl,
    server,
    proxy,
    clock,
    async close() {
      await proxy.close();
      await server.close();
    },
  };
}
