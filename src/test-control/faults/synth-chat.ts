/**
 * Faults in 1-on-1 chat (seed "Endpoints": `POST /api/v1/synths/chat`): another Synth answers, the
 * conversation is forgotten, the turn is not in the ledger.
 * @module
 */
import { editJson, editRequestJson, is } from './exchange-edits.js';
import type { Fault } from './types.js';

const chatPath = /^\/v1\/synths\/chat$/;

export const synthChatFaults: Fault[] = [
  {
    name: 'chat-another-synth-answers',
    breaks: ['CHAT-001'],
    response: (request, response) =>
      is(request, 'POST', chatPath) && response.status === 200
        ? editJson(response, (body) => (body['synth'] = body['synth'] === 'skeptic' ? 'cfo' : 'skeptic'))
        : undefined,
  },
  {
    name: 'chat-conversation-forgotten',
    breaks: ['CHAT-002'],
    answer(request) {
      if (!is(request, 'POST', chatPath)) {
        return undefined;
      }
      editRequestJson(request, (json) => delete json['conversation_id']);
      return undefined;
    },
  },
  {
    name: 'chat-not-billed',
    breaks: ['CHAT-003'],
    response: (request, response) =>
      is(request, 'GET', /^\/credits$/) && response.status === 200
        ? editJson(
            response,
            (body) =>
              (body['recent_usage'] = (body['recent_usage'] as Array<{ kind: string }>).filter(
                (entry) => entry.kind !== 'chat',
              )),
          )
        : undefined,
  },
];
