import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { findOperation, listOperations } from '../../src/contract/operations.js';
import { miniContract } from '../fixtures/mini-contract.js';

describe('listOperations', () => {
  test('lists path operations, then webhooks, with their pointers', () => {
    const entries = listOperations(miniContract()).map(({ source, path, method, operationId, pointer }) => ({
      source,
      path,
      method,
      operationId,
      pointer,
    }));
    expect(entries).toEqual([
      {
        source: 'paths',
        path: '/v1/things/{id}',
        method: 'get',
        operationId: 'getThing',
        pointer: '#/paths/~1v1~1things~1{id}/get',
      },
      {
        source: 'paths',
        path: '/v1/things/{id}/events',
        method: 'get',
        operationId: 'streamThingEvents',
        pointer: '#/paths/~1v1~1things~1{id}~1events/get',
      },
      {
        source: 'webhooks',
        path: 'thing.created',
        method: 'post',
        operationId: 'onThingCreated',
        pointer: '#/webhooks/thing.created/post',
      },
    ]);
  });

  test('finds an operation by operationId', () => {
    expect(findOperation(miniContract(), 'onThingCreated')?.source).toBe('webhooks');
    expect(findOperation(miniContract(), 'nope')).toBeUndefined();
  });
});

describe('the contract', () => {
  const entries = listOperations(loadContract());

  test('every operation has an operationId, unique across paths and webhooks', () => {
    const ids = entries.map((entry) => entry.operationId);
    expect(ids.filter((id) => id === undefined)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('has webhooks', () => {
    expect(entries.some((entry) => entry.source === 'webhooks')).toBe(true);
  });
});
