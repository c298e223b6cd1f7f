/**
 * What Prism is given: the contract's operations and the webhook samples, with the same changes as the
 * mock document (event streams as text, links to the mock) and none of the routing operations the front
 * door answers.
 */
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { listOperations } from '../../src/contract/operations.js';
import { createMockDocument, createPrismDocument } from '../../src/mock/document.js';
import { fallbackMarker } from '../../src/mock/fallbacks.js';
import { webhookSamplesPrefix } from '../../src/mock/webhook-samples.js';

const contract = loadContract();
const options = { baseUrl: 'http://127.0.0.1:4999' };

describe('the document Prism mocks', () => {
  test('has exactly the contract operations and one webhook sample per webhook, none of the routing fallbacks', () => {
    const prism = createPrismDocument(contract, options);
    const keys = (document: typeof contract): string[] =>
      listOperations(document)
        .filter((entry) => entry.source === 'paths')
        .map((entry) => `${entry.method} ${entry.path}`);
    const samples = keys(prism).filter((key) => key.startsWith(`get ${webhookSamplesPrefix}/`));
    expect(keys(prism).filter((key) => !samples.includes(key))).toEqual(keys(contract));
    expect(samples).toHaveLength(Object.keys(contract.webhooks ?? {}).length);
    expect(JSON.stringify(prism)).not.toContain(fallbackMarker);
  });

  test('is the mock document without the fallbacks', () => {
    const mock = createMockDocument(contract, options);
    const prism = createPrismDocument(contract, options);
    for (const [path, item] of Object.entries(prism.paths ?? {})) {
      const served = (mock.paths ?? {})[path] as Record<string, { [fallbackMarker]?: string }>;
      const own = Object.fromEntries(
        Object.entries(served).filter(([, operation]) => operation[fallbackMarker] === undefined),
      );
      expect(own, path).toEqual(item);
    }
  });
});
