/**
 * The route table the server registers, read from the contract: each operation counts in the rate-limit
 * bucket its `x-rate-limit-bucket` names (seed "Limits"), and a contract that names a bucket the server
 * does not have is refused at start.
 */
import { expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { routeTable } from '../../src/server/http/routes.js';

test('every operation counts in the bucket the contract names, reads when it names none', () => {
  const buckets = Object.fromEntries(routeTable(loadContract()).map((route) => [route.operationId, route.bucket]));
  expect(buckets).toMatchObject({ startSession: 'starts', getSession: 'reads', listSessions: 'reads' });
  expect(new Set(Object.values(buckets))).toEqual(new Set(['starts', 'messages', 'reads']));
});

test('a bucket the server does not have is an internal error naming the operation', () => {
  const contract = structuredClone(loadContract());
  const operation = contract.paths?.['/v1/sessions']?.post as Record<string, unknown>;
  operation['x-rate-limit-bucket'] = 'uploads';
  expect(() => routeTable(contract)).toThrow(
    expect.objectContaining({
      code: 'BOARDKIT_CONTRACT_UNKNOWN_RATE_LIMIT_BUCKET',
      message: expect.stringContaining('startSession: x-rate-limit-bucket uploads'),
    }),
  );
});
