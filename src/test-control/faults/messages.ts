/**
 * Faults in messages into a running session (seed "What the service does" 4): the round that takes a
 * message up not named, the Synths sent back not sent, a message into an ended session accepted, a Synth
 * not on the board sent back without a conflict.
 * @module
 */
import { answerJson, editJson, editRequestJson, is } from './exchange-edits.js';
import type { Fault } from './types.js';

const messagesPath = /^\/v1\/sessions\/[^/]+\/messages$/;

export const messageFaults: Fault[] = [
  {
    name: 'message-round-unnamed',
    breaks: ['MSG-001'],
    response: (request, response) =>
      is(request, 'POST', messagesPath) && response.status === 202
        ? editJson(response, (body) => delete body['round'])
        : undefined,
  },
  {
    name: 'send-back-ignored',
    breaks: ['MSG-002'],
    answer(request) {
      if (is(request, 'POST', messagesPath)) {
        editRequestJson(request, (json) => delete json['send_back']);
      }
      return undefined;
    },
  },
  {
    name: 'message-after-end-accepted',
    breaks: ['MSG-003'],
    response: (request, response) =>
      is(request, 'POST', messagesPath) && response.status === 409 ? answerJson(response, 202, '{}') : undefined,
  },
  {
    name: 'send-back-off-board-accepted',
    breaks: ['MSG-004'],
    // A server that takes any Synth of the library: the ones not on the board are dropped, not refused.
    answer(request, state) {
      if (is(request, 'POST', messagesPath)) {
        const board = state.services.store.sessions.getAny(request.url.pathname.split('/')[3]!)?.session.synths ?? [];
        editRequestJson(request, (json) => {
          if (Array.isArray(json['send_back'])) {
            const kept = (json['send_back'] as unknown[]).filter((synth) => board.includes(String(synth)));
            if (kept.length === 0) {
              delete json['send_back'];
            } else {
              json['send_back'] = kept;
            }
          }
        });
      }
      return undefined;
    },
  },
];
