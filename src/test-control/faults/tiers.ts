/**
 * Faults in tiers (seed "What the service does" 7, "Authentication" 10): lower tiers served as Ultra,
 * the Ultra Synth cap lowered, the wrong tier named.
 * @module
 */
import { ProblemError } from '../../server/core/problems.js';
import { editJson, is, requestJson, useKeyA } from './exchange-edits.js';
import type { Fault, FaultRequest, FaultState } from './types.js';

function tierOf(request: FaultRequest, state: FaultState): string | undefined {
  const token = request.headers['authorization']?.replace(/^bearer\s+/i, '');
  const key = token === undefined ? undefined : state.services.store.apiKeys.lookup(token);
  return key === undefined ? undefined : state.services.store.workspaces.get(key.workspaceId)?.tier;
}

export const tierFaults: Fault[] = [
  {
    name: 'tier-gate-off',
    breaks: ['TIER-001'],
    request(request, state) {
      const tier = tierOf(request, state);
      if (tier !== undefined && tier !== 'ultra' && tier !== 'enterprise') {
        useKeyA(request, state);
      }
    },
  },
  {
    name: 'ultra-synth-cap-lowered',
    breaks: ['TIER-002'],
    answer(request) {
      if (!is(request, 'POST', /^\/v1\/sessions$/)) {
        return undefined;
      }
      const synths = requestJson(request)?.['synths'];
      return Array.isArray(synths) && synths.length > 8
        ? new ProblemError(403, 'Lineups above 8 Synths need a higher tier.')
        : undefined;
    },
  },
  {
    name: 'credits-wrong-tier',
    breaks: ['TIER-003'],
    response: (request, response) =>
      is(request, 'GET', /^\/credits$/) && response.status === 200
        ? editJson(response, (body) => (body['tier'] = 'pro'))
        : undefined,
  },
];
