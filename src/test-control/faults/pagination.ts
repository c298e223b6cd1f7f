/**
 * Faults in cursor pagination (seed "Pagination"): an item repeated across pages, the end not marked,
 * `limit` ignored or defaulted otherwise, tampered cursors taken, out-of-range limits clamped, an
 * unpaged list announcing more, a list in another order than the contract gives.
 * @module
 */
import { editJson, is, isList } from './exchange-edits.js';
import type { Fault } from './types.js';

export const paginationFaults: Fault[] = [
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
  {
    name: 'page-cursor-missing',
    breaks: ['PAGE-002'],
    response: (request, response) =>
      isList(request)
        ? editJson(response, (body) => (body['next_cursor'] === null ? delete body['next_cursor'] : undefined))
        : undefined,
  },
  {
    name: 'page-ignore-limit',
    breaks: ['PAGE-003'],
    request: (request) => void request.url.searchParams.delete('limit'),
  },
  {
    name: 'page-default-30',
    breaks: ['PAGE-004'],
    request: (request) =>
      isList(request) && !request.url.searchParams.has('limit')
        ? void request.url.searchParams.set('limit', '30')
        : undefined,
  },
  {
    name: 'cursor-accept-tampered',
    breaks: ['PAGE-005'],
    request(request, state) {
      const cursor = request.url.searchParams.get('cursor');
      if (cursor !== null && state.memory.get(`cursor ${cursor}`) !== true) {
        request.url.searchParams.delete('cursor');
      }
    },
    response: (request, response, state) =>
      isList(request)
        ? editJson(response, (body) => void state.memory.set(`cursor ${String(body['next_cursor'])}`, true))
        : undefined,
  },
  {
    name: 'limit-clamped',
    breaks: ['PAGE-006'],
    request(request) {
      const limit = request.url.searchParams.get('limit');
      if (limit !== null && /^\d+$/.test(limit)) {
        request.url.searchParams.set('limit', String(Math.min(100, Math.max(1, Number(limit)))));
      }
    },
  },
  {
    name: 'modes-unpaged',
    breaks: ['PAGE-007'],
    response: (request, response) =>
      request.url.pathname === '/modes' ? editJson(response, (body) => (body['next_cursor'] = 'more')) : undefined,
  },
  {
    name: 'decisions-oldest-first',
    breaks: ['PAGE-008'],
    response: (request, response) =>
      is(request, 'GET', /^\/v1\/sessions\/[^/]+\/decisions$/) && response.status === 200
        ? editJson(response, (body) => (body['items'] as unknown[]).reverse())
        : undefined,
  },
];
