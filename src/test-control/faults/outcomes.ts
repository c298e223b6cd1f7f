/**
 * Faults in outcome documents (seed "Endpoints"): generated outcomes marked ready without their content,
 * `outcomes.ready` never sent, outcomes of a running session answered.
 * @module
 */
import { answerJson, editJson, is } from './exchange-edits.js';
import type { Fault } from './types.js';
import { withhold } from './withheld-events.js';

const outcomesPath = /^\/v1\/sessions\/[^/]+\/outcomes$/;

export const outcomeFaults: Fault[] = [
  {
    name: 'outcome-ready-without-content',
    breaks: ['OUT-001'],
    response: (request, response) =>
      is(request, 'GET', outcomesPath) && response.status === 200
        ? editJson(response, (body) =>
            (body['outcomes'] as Array<Record<string, unknown>>).forEach((outcome) =>
              Object.assign(outcome, { status: 'ready', content: '' }),
            ),
          )
        : undefined,
  },
  { name: 'outcomes-ready-withheld', breaks: ['OUT-002'], delivery: withhold('outcomes.ready') },
  {
    name: 'outcomes-before-completion',
    breaks: ['OUT-003'],
    response: (request, response) =>
      outcomesPath.test(request.url.pathname) && response.status === 409 ? answerJson(response, 200, '{}') : undefined,
  },
];
