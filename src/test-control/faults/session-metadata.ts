/**
 * Faults in the metadata update of a session (contract `PATCH /v1/sessions/{id}`, docs/decisions.md
 * "Sessions": Stripe's merge rule): the metadata ignored, or a `null` value not removing its key.
 * @module
 */
import { editRequestJson, is } from './exchange-edits.js';
import type { Fault, FaultRequest } from './types.js';

const sessionPath = /^\/v1\/sessions\/[^/]+$/;

/** Changes the JSON body of a session update before its handler reads it. */
function editUpdate(edit: (body: { title?: unknown; metadata?: Record<string, unknown> }) => void): Fault['answer'] {
  return (request: FaultRequest) => {
    if (!is(request, 'PATCH', sessionPath)) {
      return undefined;
    }
    editRequestJson(request, (json) => edit(json));
    return undefined;
  };
}

export const sessionMetadataFaults: Fault[] = [
  {
    name: 'session-update-drops-metadata',
    breaks: ['LIFE-013'],
    // The title is still set, so the update answers 200; the metadata never arrives.
    answer: editUpdate((body) => {
      if (body.title !== undefined) {
        delete body.metadata;
      }
    }),
  },
  {
    name: 'session-update-keeps-null-keys',
    breaks: ['LIFE-014'],
    answer: editUpdate((body) => {
      if (body.metadata !== undefined && body.metadata !== null) {
        body.metadata = Object.fromEntries(Object.entries(body.metadata).filter(([, value]) => value !== null));
      }
    }),
  },
];
