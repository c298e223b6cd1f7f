/**
 * The example catalog of mocks/README.md: fresh, and listing every operation with every example name
 * the mock can be asked for.
 */
import { readFileSync } from 'node:fs';
import type { MediaTypeObject } from 'openapi-typescript';
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { listOperations } from '../../src/contract/operations.js';
import { childPointer, resolve } from '../../src/contract/pointer.js';
import {
  catalogEnd,
  catalogStart,
  contractCatalog,
  exampleCatalog,
  mocksReadme,
  replaceCatalog,
} from '../../src/mock/catalog.js';
import { createMockDocument, streamExampleName } from '../../src/mock/document.js';
import { webhookSamplesPrefix } from '../../src/mock/webhook-samples.js';

const contract = loadContract();

function contractNames(holder: string): string[] {
  const node = resolve<{ content?: Record<string, unknown> }>(contract, holder);
  return Object.keys(node.node.content ?? {}).flatMap((mediaType) =>
    Object.keys(
      resolve<MediaTypeObject>(contract, childPointer(node.pointer, 'content', mediaType)).node.examples ?? {},
    ),
  );
}

describe('the catalog', () => {
  test('in mocks/README.md is fresh (regenerate: npm run build && node scripts/mock-catalog.mjs)', () => {
    const readme = readFileSync(mocksReadme, 'utf8');
    expect(replaceCatalog(readme, contractCatalog())).toBe(readme);
  });

  test('has a row per contract operation with all its request and response example names', () => {
    const all = exampleCatalog(createMockDocument(contract, { baseUrl: 'http://127.0.0.1:4010' }));
    const rows = all.filter((row) => !row.path.startsWith(`${webhookSamplesPrefix}/`));
    // The webhook samples come last, one row per webhook, with the webhook's body examples.
    const samples = all.slice(rows.length);
    expect(samples.map((row) => row.path)).toEqual(
      Object.keys(contract.webhooks ?? {}).map((name) => `${webhookSamplesPrefix}/${name}`),
    );
    for (const row of samples) {
      const name = row.path.slice(webhookSamplesPrefix.length + 1);
      expect(row.responses[0]?.names).toEqual(contractNames(`#/webhooks/${name}/post/requestBody`));
    }
    const operations = listOperations(contract).filter((entry) => entry.source === 'paths');
    expect(rows.map((row) => row.operationId)).toEqual(operations.map((entry) => entry.operationId));
    operations.forEach((entry, index) => {
      const row = rows[index]!;
      const body = entry.operation.requestBody;
      const requests = body === undefined ? [] : contractNames(childPointer(entry.pointer, 'requestBody'));
      expect(row.requestExamples).toEqual(requests);
      for (const response of row.responses) {
        const names = contractNames(childPointer(entry.pointer, 'responses', response.status));
        // An event stream adds the whole run, `stream`, in front of the contract's event examples.
        const served = response.names[0] === streamExampleName ? response.names.slice(1) : response.names;
        expect(served, `${entry.operationId} ${response.status}`).toEqual(names);
      }
    });
  });

  test('the README is left alone when it lacks the markers', () => {
    expect(() => replaceCatalog('# no markers', 'table')).toThrow(/markers/);
    const readme = (table: string): string => `a\n${catalogStart}\n${table}\n${catalogEnd}\nb`;
    expect(replaceCatalog(readme('old'), 'new')).toBe(readme('new'));
  });
});
