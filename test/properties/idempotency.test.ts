/**
 * Properties of idempotency fingerprints (seed "Limits": a repeated `Idempotency-Key` returns the original
 * response; the contract: another body with the same key is `409 conflict`), checked where clients meet
 * them, over HTTP on the reference server: the same JSON with its keys in another order, or spaced
 * differently, is the same request and replays the first response; any other change of the body is another
 * request and is refused.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';

const apiKey = 'sk_test_idempotency000000000000';
let server: RunningServer;
let sessionPath: string;

async function send(
  method: string,
  path: string,
  body: string,
  key?: string,
): Promise<{ status: number; replayed: string | null; text: string }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body,
  });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed'),
    text: await response.text(),
  };
}

beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, apiKeys: [apiKey] });
  const started = await send(
    'POST',
    '/v1/sessions',
    JSON.stringify({ mode: 'boardroom', synths: ['cfo', 'skeptic'], rounds: 1 }),
  );
  expect(started.status).toBe(202);
  sessionPath = `/v1/sessions/${(JSON.parse(started.text) as { id: string }).id}`;
});

afterAll(async () => {
  await server?.close();
});

/** Metadata keys from a small fixed set, so the merged metadata never passes the 20-key limit. */
const metadataKey = fc.constantFrom('k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'owner', 'crm.deal_id');
const metadataValue = fc.oneof(fc.string({ maxLength: 40 }), fc.constant(null));
const patch = fc.record(
  {
    title: fc.oneof(fc.string({ minLength: 1, maxLength: 60 }), fc.constant(null)),
    metadata: fc.dictionary(metadataKey, metadataValue, { maxKeys: 6 }),
  },
  { requiredKeys: ['metadata'] },
);

/** The same object with the keys of every object level in another order. */
function reordered(value: unknown, seed: number): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return value;
  }
  const entries = Object.entries(value);
  const rotated =
    entries.length === 0
      ? entries
      : [...entries.slice(seed % entries.length), ...entries.slice(0, seed % entries.length)];
  return Object.fromEntries(rotated.reverse().map(([key, inner]) => [key, reordered(inner, seed + 1)]));
}

/** JSON with the keys of every object level sorted, to tell whether two bodies differ. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

let keyCounter = 0;
const freshKey = () => `idem-${process.pid}-${(keyCounter += 1)}`;

describe('idempotency fingerprints', () => {
  test('reordered keys and other spacing replay the original response', async () => {
    await fc.assert(
      fc.asyncProperty(patch, fc.nat(), fc.constantFrom(0, 1, 2), async (body, seed, indent) => {
        const key = freshKey();
        const first = await send('PATCH', sessionPath, JSON.stringify(body), key);
        expect(first.status).toBe(200);
        expect(first.replayed).toBeNull();
        const again = await send('PATCH', sessionPath, JSON.stringify(reordered(body, seed), null, indent), key);
        expect(again).toEqual({ status: first.status, replayed: 'true', text: first.text });
      }),
      { numRuns: 40 },
    );
  });

  test('any other body with the same key is 409 conflict', async () => {
    const change = fc.oneof(
      fc.record({ kind: fc.constant('metadata' as const), key: metadataKey, value: metadataValue }),
      fc.record({
        kind: fc.constant('title' as const),
        value: fc.oneof(fc.string({ minLength: 1, maxLength: 60 }), fc.constant(null)),
      }),
    );
    await fc.assert(
      fc.asyncProperty(patch, change, async (body, edit) => {
        const changed =
          edit.kind === 'title'
            ? { ...body, title: edit.value }
            : { ...body, metadata: { ...body.metadata, [edit.key]: edit.value } };
        // Setting a member to the value it already has is no change.
        fc.pre(sortedJson(changed) !== sortedJson(body));
        const key = freshKey();
        expect((await send('PATCH', sessionPath, JSON.stringify(body), key)).status).toBe(200);
        const conflict = await send('PATCH', sessionPath, JSON.stringify(changed), key);
        expect(conflict.status).toBe(409);
        expect(JSON.parse(conflict.text)).toMatchObject({ status: 409, type: expect.stringMatching(/\/conflict$/) });
      }),
      { numRuns: 40 },
    );
  });
});
