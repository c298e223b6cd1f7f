/**
 * Faults in the deliveries listing's retention (seed "Limits": the last 100 attempts per subscription):
 * more than 100 listed, the newest left out.
 * @module
 */
import { editJson, is } from './exchange-edits.js';
import type { Fault } from './types.js';

const deliveriesPath = /^\/v1\/webhooks\/[^/]+\/deliveries$/;

type Page = { items: Array<Record<string, unknown>>; next_cursor: unknown };

export const deliveryRetentionFaults: Fault[] = [
  {
    // The last page ends with one attempt more, as a listing that never prunes would show.
    name: 'deliveries-listing-unbounded',
    breaks: ['DLVR-001'],
    response: (request, response) =>
      is(request, 'GET', deliveriesPath) && response.status === 200
        ? editJson(response, (body) => {
            const page = body as unknown as Page;
            const last = page.items.at(-1);
            if (page.next_cursor === null && last !== undefined) {
              page.items.push({
                ...last,
                id: `${String(last['id'])}x`,
                delivery_id: `${String(last['delivery_id'])}x`,
              });
            }
          })
        : undefined,
  },
  {
    name: 'deliveries-listing-drops-newest',
    breaks: ['DLVR-002'],
    response: (request, response) =>
      is(request, 'GET', deliveriesPath) && response.status === 200 && !request.url.searchParams.has('cursor')
        ? editJson(response, (body) => void (body as unknown as Page).items.shift())
        : undefined,
  },
];
