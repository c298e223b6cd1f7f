/**
 * Hostile input on every operation of the contract (docs/reliability.md "Hostile input"). Each operation,
 * read from the bundled contract, gets path ids with traversal sequences and SQL metacharacters, hostile
 * query values and headers, oversized, deeply nested, malformed and non-UTF-8 bodies, and bodies in other
 * media types. Every answer must be a problem of the catalogue (never a 5xx, a hang, or a closed socket),
 * and the store must be exactly as it was: the requests aim at real records of the caller's own workspace.
 *
 * Each operation and kind of input gets a key of its own in the workspace, so that the rate limits (60
 * starts a minute per key) never answer in place of the check under test.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { collectExamples } from '../../src/contract/examples.js';
import { contractLimits } from '../../src/contract/extensions.js';
import { loadContract } from '../../src/contract/load.js';
import { maxJsonDepth, nestingDepth } from '../../src/server/http/json-body.js';
import { startTestServer, type TestServer } from '../server/harness.js';
import { startReceiver, type Receiver } from '../server/receiver.js';
import {
  document,
  expectProblem,
  fillPath,
  operations,
  send,
  tableSnapshot,
  type ContractOperation,
  type RawAnswer,
} from './contract-requests.js';
import { populateWorkspace, type WorkspaceRecords } from './workspace-fixture.js';

let server: TestServer;
let receiver: Receiver;
let mine: WorkspaceRecords;
let before: Record<string, unknown[]>;
let keyCount = 0;

beforeAll(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  mine = await populateWorkspace(server, server.key, receiver.url);
  before = tableSnapshot(server.server.services.store.db, ['rate_limit_windows', 'api_keys']);
});

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

/** A new key in the caller's workspace, with rate-limit windows of its own. */
function freshKey(): string {
  const { store, clock } = server.server.services;
  const workspaceId = store.apiKeys.lookup(server.key)?.workspaceId ?? '';
  keyCount += 1;
  const key = `sk_test_hostile${String(keyCount).padStart(6, '0')}`;
  store.apiKeys.add(workspaceId, key, clock.now());
  return key;
}

/** The caller's own record for each path parameter: the one its schema accepts. */
function ownPathValues(operation: ContractOperation): Record<string, string> {
  const candidates = [mine.sessionId, mine.shareId, mine.webhookId, mine.actionId];
  return Object.fromEntries(
    operation.pathParameters.map(({ name, schemaPointer }) => {
      const value = candidates.find(
        (candidate) => server.server.services.validator.validate(schemaPointer, candidate).valid,
      );
      if (value === undefined) {
        throw new Error(`${operation.operationId}: no record of the workspace fits {${name}}`);
      }
      return [name, value];
    }),
  );
}

function headersFor(
  operation: ContractOperation,
  key: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { ...(operation.authenticated ? { authorization: `Bearer ${key}` } : {}), ...extra };
}

function exampleText(operation: ContractOperation): string {
  return JSON.stringify(operation.bodyExample ?? { title: 'A body the operation does not take' });
}

/** The example body with `bytes` inserted at the start of its first string value. */
function exampleWithBytes(operation: ContractOperation, bytes: number[]): Buffer {
  const text = exampleText(operation);
  const at = text.indexOf(':"') + 2;
  if (at < 2) {
    throw new Error(`${operation.operationId}: the example has no string value`);
  }
  return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bytes), Buffer.from(text.slice(at))]);
}

/** The request body limit (`x-limits`): a body one byte over it is refused. */
const bodyLimitBytes = contractLimits(loadContract()).requestBodyMaxBytes;

const nestedArrays = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const nestedObjects = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** Path values with traversal sequences and SQL metacharacters, as they go on the wire. */
const hostileIds: ReadonlyArray<readonly [string, string]> = [
  ['encoded traversal', '..%2F..%2F..%2Fetc%2Fpasswd'],
  ['double-encoded traversal', '..%252F..%252Fcredits'],
  ['encoded dots', '%2e%2e'],
  ['encoded dots and slashes', '%2e%2e%2f%2e%2e%2fwebhooks'],
  ['backslash traversal', '..%5C..%5Cwindows%5Cwin.ini'],
  ['literal dots', '..'],
  ['literal traversal', '../../../etc/passwd'],
  ['SQL quote', "ses_x'%20OR%20'1'%3D'1"],
  ['SQL statement', '1%3B%20DROP%20TABLE%20sessions%3B%20--'],
  ['SQL comment', '%27%20--%20'],
  ['SQL wildcard', 'ses_%25'],
  ['NUL byte', 'ses_abc%00def'],
  ['bytes that are not UTF-8', '%ff%fe'],
  ['a segment longer than any id', 'a'.repeat(2_000)],
];

const hostileQueryValues = [
  '1%20OR%201%3D1',
  '%27%3B%20DROP%20TABLE%20sessions%3B--',
  '..%2F..%2Fetc%2Fpasswd',
  '-1',
  '%ff',
  'NaN',
];

const wrongMediaTypes = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json-patch+json',
  'application/javascript',
];

/** Checks the answers of one operation, then that the store is as it was. */
async function expectProblems(
  operation: ContractOperation,
  answers: Array<[string, RawAnswer, readonly number[]]>,
): Promise<void> {
  for (const [label, answer, allowed] of answers) {
    expectProblem(answer, allowed, `${operation.method} ${operation.path} with ${label}`);
  }
  await server.server.services.webhooks.dispatcher.idle();
  expect(tableSnapshot(server.server.services.store.db, ['rate_limit_windows', 'api_keys'])).toEqual(before);
}

const withPathIds = operations.filter((operation) => operation.pathParameters.length > 0);
const withQuery = operations.filter((operation) => operation.queryParameters.length > 0);
const withBody = operations.filter((operation) => operation.takesBody);

test('the nesting limit leaves room: every example of the contract nests at most a quarter as deep', () => {
  const depths = collectExamples(document).map((example) => nestingDepth(JSON.stringify(example.value ?? null)));
  expect(depths.length).toBeGreaterThan(100);
  expect(Math.max(...depths)).toBeLessThanOrEqual(maxJsonDepth / 4);
});

test('nesting is counted outside strings only, escaped quotes included', () => {
  expect(nestingDepth('{"a":"[[[{{\\"[[","b":[[1]]}')).toBe(3);
  expect(nestingDepth('"\\\\"[]')).toBe(1);
  expect(nestingDepth('{}')).toBe(1);
  expect(nestingDepth('1')).toBe(0);
});

test('the contract is read whole: every operation is here, and each kind of input reaches some', () => {
  expect(operations.length).toBeGreaterThanOrEqual(46);
  expect(withPathIds.length).toBeGreaterThan(0);
  expect(withQuery.length).toBeGreaterThan(0);
  expect(withBody.length).toBeGreaterThan(0);
});

describe.each(withPathIds)('path ids: $method $path', (operation) => {
  test('traversal sequences and SQL metacharacters in each id are 400 or 404, and change nothing', async () => {
    const key = freshKey();
    const answers: Array<[string, RawAnswer, readonly number[]]> = [];
    for (const { name } of operation.pathParameters) {
      for (const [label, value] of hostileIds) {
        const path = fillPath(operation.path, { ...ownPathValues(operation), [name]: value });
        const body = operation.takesBody ? exampleText(operation) : undefined;
        const headers = headersFor(operation, key, body === undefined ? {} : { 'content-type': 'application/json' });
        answers.push([
          `${label} in {${name}}`,
          await send(server.baseUrl, { method: operation.method, path, headers, body }),
          [400, 404],
        ]);
      }
    }
    await expectProblems(operation, answers);
  });
});

describe.each(withQuery)('query: $method $path', (operation) => {
  test('hostile values of each query parameter, and a parameter given twice, are 400 or 404', async () => {
    const key = freshKey();
    const base = fillPath(operation.path, ownPathValues(operation));
    const answers: Array<[string, RawAnswer, readonly number[]]> = [];
    for (const name of operation.queryParameters) {
      for (const value of [...hostileQueryValues, `1&${name}=2`]) {
        const answer = await send(server.baseUrl, {
          method: operation.method,
          path: `${base}?${name}=${value}`,
          headers: headersFor(operation, key),
        });
        // A cursor is opaque: one this list did not issue names no page of it.
        answers.push([`${name}=${value}`, answer, name === 'cursor' ? [400, 404] : [400]]);
      }
    }
    await expectProblems(operation, answers);
  });
});

describe.each(operations)('headers: $method $path', (operation) => {
  test('headers over the size limit, a hostile version pin and hostile credentials get problems', async () => {
    const key = freshKey();
    const path = fillPath(operation.path, ownPathValues(operation));
    const answers: Array<[string, RawAnswer, readonly number[]]> = [];
    const one = (headers: Record<string, string>) => send(server.baseUrl, { method: operation.method, path, headers });
    answers.push([
      'a 20 KiB header',
      await one(headersFor(operation, key, { 'x-padding': 'a'.repeat(20 * 1024) })),
      [400],
    ]);
    answers.push([
      '2,000 small headers',
      await one(
        headersFor(
          operation,
          key,
          Object.fromEntries(Array.from({ length: 2_000 }, (_, index) => [`x-h${index}`, 'aaaaaaaaaa'])),
        ),
      ),
      [400],
    ]);
    answers.push([
      'a hostile version pin',
      await one(headersFor(operation, key, { 'x-service-api-version': "2026-10-01' OR '1'='1" })),
      [400],
    ]);
    if (operation.authenticated) {
      const credentials = [
        "Bearer ' OR '1'='1' --",
        'Bearer sk_test_..%2F..%2Fadmin',
        `Bearer sk_live_${'A'.repeat(8_000)}`,
        'Basic c2tfdGVzdDpwYXNzd29yZA==',
        `Bearer ${key}; DROP TABLE api_keys`,
      ];
      for (const authorization of credentials) {
        const answer = await one({ authorization });
        expect(answer.text, 'a problem never repeats the credentials it was sent').not.toContain(
          authorization.slice(7, 40),
        );
        answers.push([`Authorization: ${authorization.slice(0, 40)}`, answer, [401]]);
      }
      // Header values are bytes: Latin-1 ones that are not a key get the same 401.
      answers.push([
        'non-ASCII credentials',
        await send(server.baseUrl, {
          method: operation.method,
          path,
          headers: {
            authorization: Buffer.from([0x42, 0x65, 0x61, 0x72, 0x65, 0x72, 0x20, 0xff, 0xfe]).toString('latin1'),
          },
        }),
        [401],
      ]);
    }
    await expectProblems(operation, answers);
  });
});

describe.each(operations)('bodies: $method $path', (operation) => {
  test('oversized, deeply nested, malformed, non-UTF-8 and non-JSON bodies get problems and change nothing', async () => {
    const key = freshKey();
    const path = fillPath(operation.path, ownPathValues(operation));
    const answers: Array<[string, RawAnswer, readonly number[]]> = [];
    const post = async (
      label: string,
      body: Buffer | string,
      contentType: string | undefined,
      allowed: readonly number[],
      extra: Record<string, string> = {},
    ) => {
      const headers = headersFor(operation, key, {
        ...extra,
        ...(contentType === undefined ? {} : { 'content-type': contentType }),
      });
      answers.push([label, await send(server.baseUrl, { method: operation.method, path, headers, body }), allowed]);
    };
    // An operation that takes no body refuses any with 400 before looking at it.
    const bad = (status: number): number[] => (operation.takesBody ? [status] : [400]);
    const tooLarge = operation.statuses.has(413) ? [413] : [400];
    await post('a body one byte over 1 MiB', `"${'a'.repeat(bodyLimitBytes - 1)}"`, 'application/json', tooLarge);
    await post('10 MiB', Buffer.alloc(10 * bodyLimitBytes, 0x20), 'application/json', tooLarge);
    await post('arrays nested 100,000 deep', nestedArrays(100_000), 'application/json', [400]);
    await post('objects nested 100,000 deep', nestedObjects(100_000), 'application/json', [400]);
    await post(`arrays nested ${maxJsonDepth + 1} deep`, nestedArrays(maxJsonDepth + 1), 'application/json', [400]);
    const example = operation.bodyExample ?? { title: 'x' };
    for (const member of Object.keys(example)) {
      // With an Idempotency-Key the body is hashed before the handler runs: deep values must not get there.
      const deep = `{${Object.entries(example)
        .map(
          ([name, value]) =>
            `${JSON.stringify(name)}:${name === member ? nestedObjects(20_000) : JSON.stringify(value)}`,
        )
        .join(',')}}`;
      await post(`${member} nested 20,000 deep`, deep, 'application/json', [400], {
        'idempotency-key': `deep-${operation.operationId}-${member}`,
      });
    }
    await post('an invalid UTF-8 byte', exampleWithBytes(operation, [0xff, 0xfe]), 'application/json', [400]);
    await post('an overlong encoding of "/"', exampleWithBytes(operation, [0xc0, 0xaf]), 'application/json', [400]);
    await post(
      'an encoded UTF-16 surrogate',
      exampleWithBytes(operation, [0xed, 0xa0, 0x80]),
      'application/json',
      [400],
    );
    await post('a truncated body', exampleText(operation).slice(0, -3), 'application/json', [400]);
    await post('a trailing comma', `${exampleText(operation).slice(0, -1)},}`, 'application/json', [400]);
    await post('single quotes', exampleText(operation).replaceAll('"', "'"), 'application/json', [400]);
    await post('NaN', '{"rounds": NaN}', 'application/json', [400]);
    await post(
      'a prototype key',
      exampleText(operation).replace('{', '{"__proto__":{"polluted":true},'),
      'application/json',
      [400],
    );
    for (const mediaType of wrongMediaTypes) {
      await post(`Content-Type ${mediaType}`, exampleText(operation), mediaType, bad(415));
    }
    await post('no Content-Type', exampleText(operation), undefined, bad(415));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    await expectProblems(operation, answers);
  });
});

describe('SQL metacharacters in free-text fields', () => {
  test('are stored and returned byte for byte, and the tables they name are intact', async () => {
    const title = 'Robert\'); DROP TABLE sessions;-- " OR 1=1 /* %00 */';
    const response = await server.request(`/v1/sessions/${mine.sessionId}`, { method: 'PATCH', json: { title } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { title: string }).title).toBe(title);
    const read = await server.request(`/v1/sessions/${mine.sessionId}`);
    expect(((await read.json()) as { title: string }).title).toBe(title);
    const tables = tableSnapshot(server.server.services.store.db);
    expect(Object.keys(tables)).toEqual(expect.arrayContaining(Object.keys(before)));
    expect(tables['sessions']).toHaveLength(before['sessions']?.length ?? -1);
  });
});
