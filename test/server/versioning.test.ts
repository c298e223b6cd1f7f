/**
 * Date versions (seed "Versioning" 4; the contract's `x-api-versions`): every answer names the version
 * it was processed as, a request pins one with the same header, and the pin has an observable effect:
 * under 2026-04-01 a lineup start answers with variant A1.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createContractValidator } from '../../src/contract/validator.js';
import { loadContract } from '../../src/contract/load.js';
import { lineupStart, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
const validator = createContractValidator(loadContract());

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

async function start(
  version?: string,
  body: Record<string, unknown> = lineupStart(),
): Promise<{ response: Response; body: unknown }> {
  const response = await server.request('/v1/sessions', {
    method: 'POST',
    json: body,
    headers: version === undefined ? {} : { 'x-service-api-version': version },
  });
  return { response, body: await response.json() };
}

test('without a pin a lineup start answers variant A2 under the current version', async () => {
  const { response, body } = await start();
  expect(response.status).toBe(202);
  expect(response.headers.get('x-service-api-version')).toBe('2026-10-01');
  expect(validator.validate('#/components/schemas/StartSessionResponseA2', body).valid).toBe(true);
});

test('pinned to 2026-04-01 a lineup start answers variant A1, and the answer says so', async () => {
  const { response, body } = await start('2026-04-01');
  expect(response.headers.get('x-service-api-version')).toBe('2026-04-01');
  expect(validator.validate('#/components/schemas/StartSessionResponseA1', body).valid).toBe(true);
  expect(Object.keys(body as object)).toEqual(['session_id']);
});

test('a question start answers variant B whatever the version', async () => {
  for (const version of ['2026-04-01', '2026-10-01']) {
    const { body } = await start(version, {
      question: 'Should we open an office in Lisbon?',
      session_type: 'boardroom',
    });
    expect(validator.validate('#/components/schemas/StartSessionResponseB', body).valid).toBe(true);
  }
});

test('an unknown or malformed version is a 400 problem pointing at the header', async () => {
  for (const version of ['2025-01-01', 'latest']) {
    const response = await server.request('/v1/sessions', { headers: { 'x-service-api-version': version } });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-service-api-version')).toBe('2026-10-01');
    const problem = (await response.json()) as { errors: Array<{ pointer: string }> };
    expect(problem.errors[0]?.pointer).toBe('#/header/X-Service-API-Version');
  }
});

test('the pin applies to reads too', async () => {
  const response = await server.request('/v1/sessions', { headers: { 'x-service-api-version': '2026-04-01' } });
  expect(response.headers.get('x-service-api-version')).toBe('2026-04-01');
  await response.arrayBuffer();
});

test('a path the router refuses before any route still names the version it was answered under', async () => {
  // Found by the stateful fuzz phase (docs/fuzzing.md): these 400s are sent before the app's hooks run.
  const paths = {
    'a segment longer than any id': `/v1/sessions/${'a'.repeat(2_000)}/shares/x/revoke`,
    'bytes that are not UTF-8': '/v1/sessions/%ff%fe',
  };
  for (const [label, path] of Object.entries(paths)) {
    const response = await server.request(path, { method: 'POST', headers: { 'x-service-api-version': '2026-04-01' } });
    expect(response.status, label).toBe(400);
    expect(response.headers.get('x-service-api-version'), label).toBe('2026-10-01');
    await response.arrayBuffer();
  }
});
