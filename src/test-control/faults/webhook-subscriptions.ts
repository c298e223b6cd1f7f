/**
 * Faults in managing webhook subscriptions (contract `PATCH /v1/webhooks/{id}`, and the unversioned
 * `/webhooks` paths, `x-alias-of` the versioned ones): an update that keeps the label, and unversioned
 * paths that keep their own subscriptions or change nothing.
 * @module
 */
import { ProblemError } from '../../server/core/problems.js';
import { editRequestJson, is, unchanged } from './exchange-edits.js';
import type { Fault } from './types.js';

const createdAtUnversioned = 'subscriptions created at /webhooks';

/** Answers a write with a read of the same subscription, as a server that ignores the write might. */
function readInstead(path: RegExp, method: string): Fault['request'] {
  return (request) => {
    if (is(request, method, path)) {
      request.method = 'GET';
      request.url.pathname = request.url.pathname.replace(/\/enable$/, '');
    }
  };
}

export const webhookSubscriptionFaults: Fault[] = [
  {
    name: 'webhook-update-keeps-label',
    breaks: ['HOOK-015'],
    answer(request) {
      if (is(request, 'PATCH', /^\/v1\/webhooks\/[^/]+$/)) {
        editRequestJson(request, (json) => (Object.keys(json).length > 1 ? delete json['label'] : unchanged));
      }
      return undefined;
    },
  },
  {
    name: 'webhooks-unversioned-apart',
    breaks: ['HOOK-016'],
    // A subscription made at /webhooks is unknown at /v1/webhooks, as if each path kept its own.
    response(request, response, state) {
      if (is(request, 'POST', /^\/webhooks$/) && response.status === 201) {
        const id = (JSON.parse(response.text) as { subscription?: { id?: string } }).subscription?.id;
        const ids = (state.memory.get(createdAtUnversioned) as Set<string> | undefined) ?? new Set<string>();
        state.memory.set(createdAtUnversioned, ids.add(id ?? ''));
      }
    },
    answer(request, state) {
      const id = /^\/v1\/webhooks\/([^/]+)$/.exec(request.url.pathname)?.[1];
      const ids = state.memory.get(createdAtUnversioned) as Set<string> | undefined;
      return request.method === 'GET' && id !== undefined && ids?.has(id) === true
        ? new ProblemError(404, `No webhook subscription ${id}.`)
        : undefined;
    },
  },
  {
    name: 'webhooks-unversioned-update-ignored',
    breaks: ['HOOK-017'],
    request: readInstead(/^\/webhooks\/[^/]+$/, 'PATCH'),
  },
  {
    name: 'webhooks-unversioned-enable-noop',
    breaks: ['HOOK-018'],
    request: readInstead(/^\/webhooks\/[^/]+\/enable$/, 'POST'),
  },
];
