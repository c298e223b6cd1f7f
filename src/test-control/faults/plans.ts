/**
 * Faults in plan previews and staffed boards (seed "What the service does" 2 and 4, "Endpoints"): a
 * preview without the requested board, a preview priced unlike the start, no plan kept, a brief's board
 * said to be the user's, a short balance said to suffice, premium priced as standard.
 * @module
 */
import { ProblemError } from '../../server/core/problems.js';
import { editJson, is } from './exchange-edits.js';
import type { Fault } from './types.js';

const planPath = /^\/v1\/sessions\/plan$/;

export const planFaults: Fault[] = [
  {
    name: 'plan-without-board',
    breaks: ['PLAN-001'],
    response: (request, response) =>
      is(request, 'POST', planPath)
        ? editJson(response, (body) => {
            const brief = body['decision_brief'] as { lineup?: unknown[] } | undefined;
            if (Array.isArray(brief?.lineup)) {
              brief.lineup = brief.lineup.slice(0, 1);
            }
          })
        : undefined,
  },
  {
    name: 'plan-estimate-disagrees',
    breaks: ['PLAN-002'],
    response: (request, response) =>
      is(request, 'POST', planPath)
        ? editJson(response, (body) => {
            const estimate = body['estimate'] as { credits?: number } | undefined;
            if (typeof estimate?.credits === 'number') {
              estimate.credits += 5;
            }
          })
        : undefined,
  },
  {
    name: 'session-plan-missing',
    breaks: ['PLAN-003'],
    answer: (request) =>
      is(request, 'GET', /^\/v1\/sessions\/[^/]+\/plan$/)
        ? new ProblemError(404, 'This session kept no plan.')
        : undefined,
  },
  {
    name: 'brief-staffed-by-user',
    breaks: ['PLAN-004'],
    response: (request, response) =>
      is(request, 'GET', /^\/v1\/sessions\/[^/]+$/)
        ? editJson(response, (body) => {
            const brief = body['decision_brief'] as { staffed_by?: string } | undefined;
            if (brief?.staffed_by === 'service') {
              brief.staffed_by = 'user';
            }
          })
        : undefined,
  },
  {
    name: 'plan-sufficient-on-short-balance',
    breaks: ['PLAN-005'],
    response: (request, response) =>
      is(request, 'POST', planPath) ? editJson(response, (body) => (body['sufficient_credits'] = true)) : undefined,
  },
  {
    name: 'plan-premium-priced-standard',
    breaks: ['PLAN-006'],
    response: (request, response) =>
      is(request, 'POST', planPath)
        ? editJson(response, (body) => {
            const estimate = body['estimate'] as Record<string, number | string> | undefined;
            if (estimate?.['model_class'] === 'premium') {
              Object.assign(estimate, {
                credits_per_synth_round: 5,
                model_class_multiplier: 1,
                credits: Number(estimate['synth_count']) * Number(estimate['rounds']) * 5,
              });
            }
          })
        : undefined,
  },
];
