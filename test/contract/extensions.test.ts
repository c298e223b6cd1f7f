/**
 * The typed readers of the contract's root extensions: they read the bundled contract's values, and a
 * contract without a member the code relies on fails with an error that names it, before anything runs.
 */
import { describe, expect, test } from 'vitest';
import {
  apiVersionCatalogue,
  availableTiers,
  ContractExtensionError,
  contractLimits,
  deprecationPolicy,
  mcpTools,
  rateLimitBuckets,
  webhookDelivery,
} from '../../src/contract/extensions.js';
import { loadContract, type OpenApiDocument } from '../../src/contract/load.js';

const contract = loadContract();

/** A copy of the contract with the member at `path` taken out. */
function without(...path: Array<string | number>): OpenApiDocument {
  const copy = structuredClone(contract) as unknown as Record<string, unknown>;
  const parent = path
    .slice(0, -1)
    .reduce<Record<string | number, unknown>>((node, token) => node[token] as Record<string | number, unknown>, copy);
  delete parent[path.at(-1)!];
  return copy as unknown as OpenApiDocument;
}

describe("the bundled contract's extensions", () => {
  test('x-limits and x-webhook-delivery give the limits the server enforces', () => {
    expect(contractLimits(contract)).toEqual({
      requestBodyMaxBytes: 1_048_576,
      sharePasswordGuesses: { perLink: 5, windowMs: 15 * 60_000 },
    });
    const delivery = webhookDelivery(contract);
    expect(delivery.attemptTimeoutMs).toBe(10_000);
    expect(delivery.replayToleranceSeconds).toBe(300);
    expect([...delivery.eventLists.keys()]).toEqual([1, 2, 3, 4]);
    expect(delivery.eventLists.get(1)).toContain('session.complete');
  });

  test('x-mcp-tools, x-api-versions, x-rate-limit-buckets and x-availability', () => {
    expect(mcpTools(contract)).toEqual([
      expect.objectContaining({ name: 'service.consult.message', endpointPath: '/mcp' }),
    ]);
    expect(apiVersionCatalogue(contract)).toEqual({
      header: 'X-Service-API-Version',
      current: '2026-10-01',
      supported: ['2026-10-01', '2026-04-01'],
    });
    const buckets = rateLimitBuckets(contract);
    expect(buckets.windowSeconds).toBe(60);
    expect(Object.fromEntries(buckets.ultraPerMinute)).toEqual({ starts: 60, messages: 600, reads: 3000 });
    expect(buckets.tierMultipliers).toMatchObject({ pro: 1, ultra: 16 });
    expect(availableTiers(contract)).toEqual(['ultra', 'enterprise']);
  });

  test('x-deprecation-policy', () => {
    const policy = deprecationPolicy(contract);
    expect(policy?.breakingChanges).toContain('/v2/');
    expect(policy?.notice.map((notice) => notice.variant)).toEqual(['overlap', 'notice']);
    expect(policy?.headers).toEqual([]);
    expect(deprecationPolicy(without('x-deprecation-policy'))).toBeUndefined();
  });

  test('each is read once per document', () => {
    expect(webhookDelivery(contract)).toBe(webhookDelivery(contract));
  });
});

describe('a contract without a member the code relies on', () => {
  test.each([
    [() => contractLimits(without('x-limits')), 'the contract has no x-limits (an object)'],
    [
      () => contractLimits(without('x-limits', 'request_body_max_bytes', 'value')),
      'the contract has no x-limits.request_body_max_bytes.value (a number)',
    ],
    [
      () => webhookDelivery(without('x-webhook-delivery', 'attempt_timeout_seconds')),
      'the contract has no x-webhook-delivery.attempt_timeout_seconds.value (a number)',
    ],
    [
      () => webhookDelivery(without('x-webhook-delivery', 'event_lists', 'variants', 2, 'events')),
      'the contract has no x-webhook-delivery.event_lists.variants[2].events (an array)',
    ],
    [() => mcpTools(without('x-mcp-tools', 0, 'input')), 'the contract has no x-mcp-tools[0].input.$ref (a string)'],
    [
      () => apiVersionCatalogue(without('x-api-versions', 'current')),
      'the contract has no x-api-versions.current (a string)',
    ],
    [() => rateLimitBuckets(without('x-rate-limit-buckets')), 'the contract has no x-rate-limit-buckets (an object)'],
    [() => availableTiers(without('x-availability')), 'the contract has no x-availability.tiers (an array)'],
    [
      () => deprecationPolicy(without('x-deprecation-policy', 'notice')),
      'the contract has no x-deprecation-policy.notice (an array)',
    ],
  ])('%#: fails naming what is missing', (read, message) => {
    expect(read).toThrow(ContractExtensionError);
    expect(read).toThrow(message);
  });
});
