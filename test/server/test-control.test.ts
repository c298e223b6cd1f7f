/**
 * The test-only control plane of `boardkit serve --test-control` (docs/conformance.md "Time control and
 * fault switches"): off by default, announced on the health probe when on, the clock read, sped up and
 * jumped forward with its timers firing in due order, the fault switches read and set, and every refusal
 * a problem of the catalogue. Real HTTP on 127.0.0.1 against the server with response validation on.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { faultCatalogue } from '../../src/test-control/faults/index.js';

const hour = 3_600_000;
const problemType = (slug: string): string => `https://problems.decision-board.example/${slug}`;

let plain: RunningServer;
let controlled: RunningServer;

function call(server: RunningServer, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : {
          headers: { 'content-type': 'application/json' },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
  });
}

async function problemOf(
  response: Response,
): Promise<{ status: number; type: string; errors?: Array<{ pointer: string }> }> {
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return (await response.json()) as { status: number; type: string; errors?: Array<{ pointer: string }> };
}

beforeAll(async () => {
  const common = {
    db: ':memory:',
    apiKeys: ['sk_test_control00000000000000001'],
    validateResponses: true,
    onError: () => undefined,
  };
  [plain, controlled] = await Promise.all([startServer(common), startServer({ ...common, testControl: true })]);
});

afterAll(async () => {
  await Promise.all([plain?.close(), controlled?.close()]);
  expect([...plain.violations, ...controlled.violations]).toEqual([]);
});

describe('without --test-control', () => {
  test('/_test is an unknown route like any other and the health probe announces nothing', async () => {
    const health = await call(plain, 'GET', '/v1/health');
    expect(health.headers.has('x-boardkit-test-control')).toBe(false);
    for (const path of ['/_test/clock', '/_test/faults']) {
      const response = await call(plain, 'GET', path);
      expect(response.status).toBe(404);
      expect(await problemOf(response)).toMatchObject({ status: 404, type: problemType('not-found') });
    }
    expect((await call(plain, 'PUT', '/_test/faults', { active: ['problem-as-json'] })).status).toBe(404);
  });
});

describe('with --test-control', () => {
  test('the health probe announces the control plane', async () => {
    const health = await call(controlled, 'GET', '/v1/health');
    expect(health.status).toBe(200);
    expect(health.headers.get('x-boardkit-test-control')).toBe('/_test');
  });

  test('GET /_test/clock reads the server clock and its scale', async () => {
    const response = await call(controlled, 'GET', '/_test/clock');
    expect(response.status).toBe(200);
    const clock = (await response.json()) as { now: string; time_scale: number };
    expect(clock.time_scale).toBe(1);
    expect(Math.abs(Date.parse(clock.now) - controlled.services.clock.now())).toBeLessThan(1_000);
  });

  test('PUT advance_ms jumps the clock and the timers that fall due fire in due order', async () => {
    const { clock } = controlled.services;
    const fired: string[] = [];
    const allFired = new Promise<void>((resolve) => {
      clock.setTimer(3 * hour, () => fired.push('third'));
      clock.setTimer(1 * hour, () => fired.push('first'));
      clock.setTimer(2 * hour, () => {
        fired.push('second');
        resolve();
      });
      clock.setTimer(5 * hour, () => fired.push('not yet'));
    });
    const before = clock.now();
    const response = await call(controlled, 'PUT', '/_test/clock', { advance_ms: 4 * hour });
    const after = (await response.json()) as { now: string };
    expect(Date.parse(after.now) - before).toBeGreaterThanOrEqual(4 * hour);
    await allFired;
    await new Promise((resolve) => setImmediate(resolve));
    expect(fired).toEqual(['first', 'second', 'third']);
  });

  test('PUT time_scale changes the speed; simulated time goes on from where it was', async () => {
    const { clock } = controlled.services;
    const before = clock.now();
    const response = await call(controlled, 'PUT', '/_test/clock', { time_scale: 3_600 });
    const changed = (await response.json()) as { now: string; time_scale: number };
    expect(changed.time_scale).toBe(3_600);
    expect(Date.parse(changed.now)).toBeGreaterThanOrEqual(before);
    // A minute of simulated time is about 17 real milliseconds now.
    const started = clock.now();
    await new Promise<void>((resolve) => clock.setTimer(60_000, resolve));
    expect(clock.now() - started).toBeGreaterThanOrEqual(60_000);
    await call(controlled, 'PUT', '/_test/clock', { time_scale: 1 });
    expect((await (await call(controlled, 'GET', '/_test/clock')).json()) as { time_scale: number }).toMatchObject({
      time_scale: 1,
    });
  });

  test('a clock setting it cannot apply is a 400 problem naming it', async () => {
    const cases: Array<[unknown, string]> = [
      [{ time_scale: 0 }, '#/body/time_scale'],
      [{ time_scale: 'fast' }, '#/body/time_scale'],
      [{ advance_ms: -5 }, '#/body/advance_ms'],
      [{ speed: 2 }, '#/body/speed'],
      [{}, '#/body'],
      [[1], '#/body'],
      ['{"time_scale": ', '#/body'],
    ];
    for (const [body, pointer] of cases) {
      const response = await call(controlled, 'PUT', '/_test/clock', body);
      expect(response.status).toBe(400);
      const problem = await problemOf(response);
      expect(problem).toMatchObject({ status: 400, type: problemType('invalid-request') });
      expect(problem.errors?.[0]?.pointer).toBe(pointer);
    }
  });

  test('GET and PUT /_test/faults list the catalogue and switch faults on and off', async () => {
    const listed = (await (await call(controlled, 'GET', '/_test/faults')).json()) as {
      available: string[];
      active: string[];
    };
    expect(listed).toEqual({ available: faultCatalogue.map((fault) => fault.name), active: [] });
    const switched = await call(controlled, 'PUT', '/_test/faults', { active: ['omit-version-header'] });
    expect(await switched.json()).toMatchObject({ active: ['omit-version-header'] });
    // The fault acts on the API, never on the control plane itself.
    expect((await call(controlled, 'GET', '/v1/health')).headers.has('x-service-api-version')).toBe(false);
    expect((await call(controlled, 'GET', '/_test/faults')).headers.has('x-service-api-version')).toBe(true);
    await call(controlled, 'PUT', '/_test/faults', { active: [] });
    expect((await call(controlled, 'GET', '/v1/health')).headers.has('x-service-api-version')).toBe(true);
  });

  test('an unknown fault is a 400 problem pointing at it, and nothing is switched', async () => {
    const response = await call(controlled, 'PUT', '/_test/faults', { active: ['problem-as-json', 'no-such-fault'] });
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem).toMatchObject({ status: 400, type: problemType('invalid-request') });
    expect(problem.errors).toEqual([
      { pointer: '#/body/active/1', detail: '"no-such-fault" is not a fault of the catalogue' },
    ]);
    expect(await (await call(controlled, 'GET', '/_test/faults')).json()).toMatchObject({ active: [] });
    const notAList = await call(controlled, 'PUT', '/_test/faults', { active: 'problem-as-json' });
    expect((await problemOf(notAList)).errors?.[0]?.pointer).toBe('#/body/active');
  });

  test('another method is a 405 problem with Allow; another path under /_test is a 404 problem', async () => {
    const wrongMethod = await call(controlled, 'DELETE', '/_test/faults');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, PUT');
    expect(await problemOf(wrongMethod)).toMatchObject({ status: 405 });
    const unknown = await call(controlled, 'GET', '/_test/nothing');
    expect(unknown.status).toBe(404);
    expect(await problemOf(unknown)).toMatchObject({ status: 404, type: problemType('not-found') });
  });
});
