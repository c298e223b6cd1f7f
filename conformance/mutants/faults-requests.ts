/**
 * Faults in authentication, versioning, idempotency, long-polling, isolation and rate limits: each makes
 * the implementation behind the proxy break the requirements it names.
 * @module
 */
import { editJson, is, keyOf, problem } from './helpers.js';
import type { BufferedResponse, Fault } from './types.js';

const sessionPath = /^\/v1\/sessions\/[^/]+/;

export const requestFaults: Fault[] = [
  {
    name: 'auth-accept-missing-token',
    breaks: ['AUTH-001'],
    request(request, state) {
      request.headers['authorization'] ??= `Bearer ${state.keys.a}`;
      return undefined;
    },
  },
  {
    name: 'auth-accept-any-key',
    breaks: ['AUTH-002'],
    request(request, state) {
      if (/^Bearer /.test(request.headers['authorization'] ?? '') && keyOf(request, state) === undefined) {
        request.headers['authorization'] = `Bearer ${state.keys.a}`;
      }
      return undefined;
    },
  },
  {
    name: 'auth-accept-other-schemes',
    breaks: ['AUTH-003'],
    request(request, state) {
      const value = request.headers['authorization'];
      if (value !== undefined && !/^bearer /i.test(value)) {
        request.headers['authorization'] = `Bearer ${state.keys.a}`;
      }
      return undefined;
    },
  },
  {
    name: 'health-requires-token',
    breaks: ['AUTH-004'],
    request: (request) => (is(request, 'GET', /^\/v1\/health$/) && request.headers['authorization'] === undefined ? problem(401, 'unauthorized', 'A key is required.') : undefined),
  },
  {
    name: 'auth-no-challenge',
    breaks: ['AUTH-006'],
    response: (_, response) => void delete response.headers['www-authenticate'],
  },
  {
    name: 'auth-scheme-case-sensitive',
    breaks: ['AUTH-007'],
    request(request) {
      if (/^(bearer|BEARER) /.test(request.headers['authorization'] ?? '')) {
        delete request.headers['authorization'];
      }
      return undefined;
    },
  },
  {
    name: 'omit-version-header',
    breaks: ['VER-001'],
    response: (_, response) => void delete response.headers['x-service-api-version'],
  },
  {
    name: 'version-ignore-pin',
    breaks: ['VER-002', 'VER-004'],
    request: (request) => void delete request.headers['x-service-api-version'],
  },
  {
    name: 'version-accept-unknown',
    breaks: ['VER-003'],
    request(request) {
      if (!['2026-10-01', '2026-04-01', undefined].includes(request.headers['x-service-api-version'])) {
        delete request.headers['x-service-api-version'];
      }
      return undefined;
    },
  },
  {
    name: 'health-wrong-version',
    breaks: ['VER-005'],
    response: (request, response) => (request.url.pathname === '/v1/health' ? editJson(response, (body) => (body['api_version'] = '2020-01-01')) : undefined),
  },
  {
    name: 'idempotency-key-refused',
    breaks: ['IDEM-001'],
    request: (request) => (request.headers['idempotency-key'] === undefined ? undefined : problem(400, 'invalid-request', 'Idempotency-Key is not accepted.')),
  },
  {
    name: 'idempotency-ignore-key',
    breaks: ['IDEM-002'],
    request: (request) => void delete request.headers['idempotency-key'],
  },
  {
    name: 'idempotency-no-conflict',
    breaks: ['IDEM-003'],
    // A conflicting reuse is answered with the first response, as if the body were the same.
    request: (request, state) => (request.headers['idempotency-key'] === undefined ? undefined : (state.memory.get(`first ${request.headers['idempotency-key']}`) as BufferedResponse | undefined)),
    response(request, response, state) {
      const key = request.headers['idempotency-key'];
      if (key !== undefined && response.status < 300 && !state.memory.has(`first ${key}`)) {
        state.memory.set(`first ${key}`, { ...response, headers: { ...response.headers } });
      }
    },
  },
  {
    name: 'idempotency-race',
    breaks: ['IDEM-004'],
    async request(request, state) {
      const key = request.headers['idempotency-key'];
      if (key !== undefined) {
        // Concurrent duplicates are let through one by one, each without its key.
        const inFlight = state.memory.get(`flight ${key}`) === true;
        state.memory.set(`flight ${key}`, true);
        if (inFlight) {
          delete request.headers['idempotency-key'];
        }
      }
      return undefined;
    },
    response: (request, _, state) => void state.memory.delete(`flight ${request.headers['idempotency-key']}`),
  },
  {
    name: 'idempotency-global-keys',
    breaks: ['IDEM-005'],
    request: (request, state) => (request.headers['idempotency-key'] === undefined ? undefined : (state.memory.get(`global ${request.headers['idempotency-key']}`) as BufferedResponse | undefined)),
    response(request, response, state) {
      const key = request.headers['idempotency-key'];
      if (key !== undefined && response.status < 300) {
        state.memory.set(`global ${key}`, { ...response, headers: { ...response.headers } });
      }
    },
  },
  {
    name: 'idempotency-no-replay-header',
    breaks: ['IDEM-006'],
    response: (_, response) => void delete response.headers['idempotent-replayed'],
  },
  {
    name: 'idempotency-short-window',
    breaks: ['IDEM-007'],
    request(request, state) {
      const key = request.headers['idempotency-key'];
      if (key !== undefined) {
        const first = (state.memory.get(`seen ${key}`) as number | undefined) ?? state.clock.now();
        state.memory.set(`seen ${key}`, first);
        if (state.clock.now() - first > 3_600_000) {
          delete request.headers['idempotency-key'];
        }
      }
      return undefined;
    },
  },
  {
    name: 'longpoll-ignore-wait',
    breaks: ['POLL-001', 'POLL-002'],
    request: (request) => void request.url.searchParams.delete('wait_ms'),
  },
  {
    name: 'longpoll-no-max',
    breaks: ['POLL-003'],
    request(request) {
      if (Number(request.url.searchParams.get('wait_ms')) > 60_000) {
        request.url.searchParams.set('wait_ms', '60000');
      }
      return undefined;
    },
  },
  {
    name: 'leak-other-workspace',
    breaks: ['ISO-001'],
    request(request, state) {
      if (request.method === 'GET' && sessionPath.test(request.url.pathname) && keyOf(request, state) === 'b') {
        request.headers['authorization'] = `Bearer ${state.keys.a}`;
      }
      return undefined;
    },
  },
  {
    name: 'isolation-off',
    breaks: ['ISO-002', 'ISO-003', 'ISO-004', 'ISO-005', 'ISO-006', 'ISO-007'],
    request(request, state) {
      if (keyOf(request, state) === 'b') {
        request.headers['authorization'] = `Bearer ${state.keys.a}`;
      }
      return undefined;
    },
  },
  {
    name: 'rate-limit-never',
    breaks: ['RATE-001'],
    response(_, response) {
      if (response.status === 429) {
        Object.assign(response, problem(404, 'not-found', 'No such session.'));
      }
    },
  },
  {
    name: 'rate-limit-short-retry-after',
    breaks: ['RATE-002'],
    response(_, response) {
      const seconds = Number(response.headers['retry-after']);
      if (response.status === 429 && seconds > 1) {
        response.headers['retry-after'] = String(Math.floor(seconds / 2));
        editJson(response, (body) => (body['retry_after_s'] = Math.floor(seconds / 2)));
      }
    },
  },
  {
    name: 'rate-limit-shared-bucket',
    breaks: ['RATE-003'],
    request(request, state) {
      if (keyOf(request, state) === 'b' && /\/cancel$/.test(request.url.pathname)) {
        request.headers['authorization'] = `Bearer ${state.keys.a}`;
      }
      return undefined;
    },
  },
  {
    name: 'rate-limit-header-mismatch',
    breaks: ['RATE-004'],
    response(_, response) {
      if (response.headers['ratelimit'] !== undefined) {
        response.headers['ratelimit'] = response.headers['ratelimit'].replace(/^"[^"]+"/, '"other"');
      }
    },
  },
  {
    name: 'rate-limit-body-mismatch',
    breaks: ['RATE-005'],
    response: (_, response) => (response.status === 429 ? editJson(response, (body) => (body['retry_after_s'] = Number(body['retry_after_s'] ?? 0) + 7)) : undefined),
  },
];
