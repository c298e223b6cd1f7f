/**
 * The handler map is typed from the generated `operations`: the `@ts-expect-error` lines below fail
 * `tsc --noEmit` (part of `npm test`) unless each is a compile error. At run time, the map has exactly the
 * contract's operations, and a handler that answers outside the contract is caught by response validation.
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { listOperations } from '../../src/contract/operations.js';
import { buildApp } from '../../src/server/http/app.js';
import { manualClock } from '../../src/server/core/clock.js';
import type { ResponseViolation } from '../../src/server/ports/app.js';
import type { Handler, HandlerMap, OperationId, Reply } from '../../src/server/ports/handlers.js';
import { handlers } from '../../src/server/http/handlers/index.js';
import { retrySchedules } from '../../src/webhooks/retry.js';
import { createServices } from '../../src/server/server.js';
import { createStore } from '../../src/server/store/index.js';
import { provisionKeys } from '../../src/server/domain/provisioning.js';

describe('types', () => {
  test('the operation ids are those of paths, not of webhooks', () => {
    expectTypeOf<'startSession'>().toExtend<OperationId>();
    expectTypeOf<'listWebhooksUnversioned'>().toExtend<OperationId>();
    expectTypeOf<'onSessionComplete'>().not.toExtend<OperationId>();
  });

  test('a reply must be a documented status with the documented shape', () => {
    const health: Reply<'getHealth'> = { status: 200, body: { status: 'ok' } };
    // @ts-expect-error 201 is not a documented status of getHealth
    const undocumentedStatus: Reply<'getHealth'> = { status: 201, body: { status: 'ok' } };
    // @ts-expect-error `status` of Health is `ok` or `degraded`
    const wrongShape: Reply<'getHealth'> = { status: 200, body: { status: 'fine' } };
    // @ts-expect-error a 204 has no body
    const bodyOnNoContent: Reply<'deleteSession'> = { status: 204, body: { deleted: true } };
    // @ts-expect-error a stream operation answers a stream of events, not a JSON body
    const jsonForStream: Reply<'streamSessionEvents'> = { status: 200, body: {} };
    // @ts-expect-error 402 answers carry the insufficient-credits extension members
    const bareInsufficient: Reply<'startSession'> = {
      status: 402,
      body: { type: 'x', title: 't', status: 402, detail: 'd' },
    };
    expect([health, undocumentedStatus, wrongShape, bodyOnNoContent, jsonForStream, bareInsufficient]).toHaveLength(6);
  });

  test('a handler receives the typed request of its operation', () => {
    const handler: Handler<'getSession'> = (request) => {
      expectTypeOf(request.query.wait_ms).toEqualTypeOf<number | undefined>();
      expectTypeOf(request.path.id).toBeString();
      // @ts-expect-error getSession takes no body
      const body: { mode: string } = request.body;
      void body;
      throw new Error('not called');
    };
    expect(typeof handler).toBe('function');
  });

  test('the map needs a handler for every operation', () => {
    const { getHealth: _omitted, ...rest } = handlers;
    // @ts-expect-error getHealth is missing
    const incomplete: HandlerMap = rest;
    expect(Object.keys(incomplete)).not.toContain('getHealth');
  });
});

describe('at run time', () => {
  test('the map holds exactly the operations of the contract', () => {
    const ids = listOperations(loadContract())
      .filter((entry) => entry.source === 'paths')
      .map((entry) => entry.operationId);
    expect(Object.keys(handlers).sort()).toEqual([...ids].sort());
  });

  test('a handler that answers outside the contract is turned into a 500 and reported', async () => {
    const document = loadContract();
    const clock = manualClock();
    const store = createStore(':memory:');
    const services = createServices(
      document,
      store,
      clock,
      {
        heartbeatMs: 15_000,
        region: 'US-East',
        allowPrivateWebhookUrls: false,
        retrySchedule: retrySchedules.fourWaits,
      },
      () => 'http://127.0.0.1',
      () => undefined,
    );
    const violations: ResponseViolation[] = [];
    const broken = {
      ...handlers,
      getHealth: () => ({ status: 200, body: { status: 'fine' } }),
    } as unknown as HandlerMap;
    const app = buildApp({
      services,
      handlers: broken,
      validateResponses: true,
      onResponseViolation: (v) => violations.push(v),
    });
    provisionKeys(store, [], { tier: 'ultra', apiVersion: '2026-10-01', now: clock.now() });
    const response = await app.inject({ method: 'GET', url: '/v1/health' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(violations).toEqual([expect.objectContaining({ operationId: 'getHealth', status: 200 })]);
    expect(violations[0]?.problems.join(' ')).toContain('#/body/status');
    await app.close();
    store.close();
  });
});
