/**
 * Faults in problem details, contract shapes, pagination and the session lifecycle.
 * @module
 */
import { buildContract } from '../harness/contract.js';
import { loadContract } from '../../src/contract/load.js';
import { editJson, is, isProblem, problem, problemBase } from './helpers.js';
import type { BufferedResponse, Fault, ProxiedRequest } from './types.js';

const contract = buildContract(loadContract());
const sessionPath = /^\/v1\/sessions\/[^/]+$/;

function rewriteProblem(response: BufferedResponse, status: number, slug: string): void {
  response.status = status;
  editJson(response, (body) => {
    body['status'] = status;
    body['type'] = `${problemBase}${slug}`;
  });
}

function isList(request: ProxiedRequest): boolean {
  return request.method === 'GET' && JSON.stringify(contract.operation('GET', request.url.pathname)?.operation.parameters ?? []).includes('/Cursor');
}

export const responseFaults: Fault[] = [
  { name: 'problem-as-json', breaks: ['PROB-001'], response: (_, response) => (isProblem(response) ? void (response.headers['content-type'] = 'application/json') : undefined) },
  { name: 'problem-status-mismatch', breaks: ['PROB-002'], response: (_, response) => (isProblem(response) ? editJson(response, (body) => (body['status'] = response.status + 1)) : undefined) },
  { name: 'problem-wrong-slug', breaks: ['PROB-003'], response: (_, response) => (isProblem(response) ? editJson(response, (body) => (body['type'] = `${problemBase}error`)) : undefined) },
  {
    name: 'problem-stack-trace',
    breaks: ['PROB-004'],
    response: (_, response) => (isProblem(response) ? editJson(response, (body) => (body['detail'] = `${String(body['detail'])}\n    at handle (/srv/app/lib/server.js:42:17)`)) : undefined),
  },
  { name: 'problem-title-varies', breaks: ['PROB-005'], response: (request, response) => (isProblem(response) ? editJson(response, (body) => (body['title'] = `${String(body['title'])} at ${request.url.pathname}`)) : undefined) },
  { name: 'invalid-as-422', breaks: ['PROB-006', 'PROB-008', 'PROB-013'], response: (_, response) => (response.status === 400 ? rewriteProblem(response, 422, 'unprocessable') : undefined) },
  { name: 'invalid-without-pointers', breaks: ['PROB-007'], response: (_, response) => (response.status === 400 ? editJson(response, (body) => delete body['errors']) : undefined) },
  { name: 'media-type-as-400', breaks: ['PROB-009'], response: (_, response) => (response.status === 415 ? rewriteProblem(response, 400, 'invalid-request') : undefined) },
  { name: 'too-large-as-400', breaks: ['PROB-010'], response: (_, response) => (response.status === 413 ? rewriteProblem(response, 400, 'invalid-request') : undefined) },
  {
    name: 'unknown-path-found',
    breaks: ['PROB-011'],
    response(request, response) {
      if (response.status === 404 && contract.route(request.url.pathname) === undefined) {
        Object.assign(response, { status: 200, headers: { ...response.headers, 'content-type': 'application/json' }, text: '{}' });
      }
    },
  },
  { name: 'no-allow-header', breaks: ['PROB-012'], response: (_, response) => void delete response.headers['allow'] },
  { name: 'not-found-as-403', breaks: ['PROB-014'], response: (_, response) => (response.status === 404 ? rewriteProblem(response, 403, 'tier-required') : undefined) },
  { name: 'credits-answer-203', breaks: ['CONT-001'], response: (request, response) => (is(request, 'GET', /^\/credits$/) && response.status === 200 ? void (response.status = 203) : undefined) },
  { name: 'synths-as-text', breaks: ['CONT-002'], response: (request, response) => (request.url.pathname === '/synths' ? void (response.headers['content-type'] = 'text/plain') : undefined) },
  { name: 'ratelimit-header-malformed', breaks: ['CONT-003'], response: (_, response) => void (response.headers['ratelimit'] &&= 'plenty left') },
  {
    name: 'synths-without-names',
    breaks: ['CONT-004'],
    response: (request, response) => (is(request, 'GET', /^\/synths$/) && response.status === 200 ? editJson(response, (body) => (body['items'] as Array<Record<string, unknown>>).forEach((item) => delete item['name'])) : undefined),
  },
  { name: 'modes-fail', breaks: ['CONT-005', 'CONT-006'], request: (request) => (is(request, 'GET', /^\/modes$/) ? problem(500, 'internal-error', 'The modes are unavailable.') : undefined) },
  {
    name: 'page-repeat-item',
    breaks: ['PAGE-001'],
    response(request, response, state) {
      if (!isList(request) || response.status !== 200) {
        return;
      }
      editJson(response, (body) => {
        const items = body['items'] as unknown[];
        const cursor = request.url.searchParams.get('cursor');
        const previous = cursor === null ? undefined : state.memory.get(`last ${cursor}`);
        if (typeof body['next_cursor'] === 'string') {
          state.memory.set(`last ${body['next_cursor']}`, items.at(-1));
        }
        if (previous !== undefined) {
          body['items'] = [previous, ...items];
        }
      });
    },
  },
  { name: 'page-cursor-missing', breaks: ['PAGE-002'], response: (request, response) => (isList(request) ? editJson(response, (body) => (body['next_cursor'] === null ? delete body['next_cursor'] : undefined)) : undefined) },
  { name: 'page-ignore-limit', breaks: ['PAGE-003'], request: (request) => void request.url.searchParams.delete('limit') },
  {
    name: 'page-default-30',
    breaks: ['PAGE-004'],
    request: (request) => (isList(request) && !request.url.searchParams.has('limit') ? void request.url.searchParams.set('limit', '30') : undefined),
  },
  {
    name: 'cursor-accept-tampered',
    breaks: ['PAGE-005'],
    request(request, state) {
      const cursor = request.url.searchParams.get('cursor');
      if (cursor !== null && state.memory.get(`cursor ${cursor}`) !== true) {
        request.url.searchParams.delete('cursor');
      }
      return undefined;
    },
    response: (request, response, state) => (isList(request) ? editJson(response, (body) => void state.memory.set(`cursor ${String(body['next_cursor'])}`, true)) : undefined),
  },
  {
    name: 'limit-clamped',
    breaks: ['PAGE-006'],
    request(request) {
      const limit = request.url.searchParams.get('limit');
      if (limit !== null && /^\d+$/.test(limit)) {
        request.url.searchParams.set('limit', String(Math.min(100, Math.max(1, Number(limit)))));
      }
      return undefined;
    },
  },
  { name: 'modes-unpaged', breaks: ['PAGE-007'], response: (request, response) => (request.url.pathname === '/modes' ? editJson(response, (body) => (body['next_cursor'] = 'more')) : undefined) },
  {
    name: 'start-unpublished-variant',
    breaks: ['LIFE-001', 'LIFE-002'],
    response: (request, response) => (is(request, 'POST', /^\/v1\/sessions$/) && response.status === 202 ? editJson(response, (body) => ((body['queue_position'] = 1), delete body['task_id'])) : undefined),
  },
  {
    name: 'memo-confidence-out-of-range',
    breaks: ['LIFE-003'],
    response: (request, response) => (is(request, 'GET', sessionPath) ? editJson(response, (body) => (body['memo'] === null || body['memo'] === undefined ? undefined : ((body['memo'] as Record<string, unknown>)['confidence_0_100'] = 150))) : undefined),
  },
  { name: 'outcomes-unavailable', breaks: ['LIFE-004'], request: (request) => (is(request, 'GET', /\/outcomes$/) ? problem(409, 'conflict', 'Not complete.') : undefined) },
  { name: 'continue-refused', breaks: ['LIFE-005'], request: (request) => (is(request, 'POST', /\/continue$/) ? problem(409, 'conflict', 'Cannot continue.') : undefined) },
  { name: 'fork-forgets-source', breaks: ['LIFE-006'], response: (request, response) => (is(request, 'GET', sessionPath) ? editJson(response, (body) => (body['forked_from'] = null)) : undefined) },
  { name: 'cancel-not-reconciled', breaks: ['LIFE-007'], response: (request, response) => (is(request, 'GET', sessionPath) ? editJson(response, (body) => (body['status'] === 'cancelled' ? delete body['credits_refunded'] : undefined)) : undefined) },
  { name: 'cancel-no-refund', breaks: ['LIFE-008'], response: (request, response) => (is(request, 'GET', sessionPath) ? editJson(response, (body) => (body['status'] === 'cancelled' ? (body['credits_refunded'] = 0) : undefined)) : undefined) },
  { name: 'archive-refused', breaks: ['LIFE-009'], request: (request) => (is(request, 'POST', /\/archive$/) ? problem(409, 'conflict', 'Cannot archive.') : undefined) },
  { name: 'delete-returns-200', breaks: ['LIFE-010'], response: (request, response) => (request.method === 'DELETE' && response.status === 204 ? Object.assign(response, { status: 200, headers: { ...response.headers, 'content-type': 'application/json' }, text: '{"deleted":true}' }) : undefined) },
  { name: 'conflict-as-200', breaks: ['LIFE-011'], response: (_, response) => (response.status === 409 ? Object.assign(response, { status: 200, headers: { ...response.headers, 'content-type': 'application/json' }, text: '{}' }) : undefined) },
  {
    name: 'lineup-unchecked',
    breaks: ['LIFE-012'],
    request(request) {
      if (is(request, 'POST', /^\/v1\/sessions$/)) {
        try {
          const body = JSON.parse(request.body.toString('utf8')) as { synths?: unknown[] };
          if (Array.isArray(body.synths) && (body.synths.length < 2 || body.synths.length > 12)) {
            body.synths = ['cfo', 'skeptic', 'growth_lead'];
            request.body = Buffer.from(JSON.stringify(body));
          }
        } catch {
          // Not JSON: left to the server.
        }
      }
      return undefined;
    },
  },
];
