/**
 * Faults in messages into a running session (seed "What the service does" 4): the round that takes a
 * message up not named, the Synths sent back not sent, a message into an ended session accepted.
 * @module
 */
import { answerJson, editJson, is } from './exchange-edits.js';
import type { Fault } from './types.js';

const messagesPath = /^\/v1\/sessions\/[^/]+\/messages$/;

export const messageFaults: Fault[] = [
  {
    name: 'message-round-unnamed',
    breaks: ['MSG-001'],
    response: (request, response) => (is(request, 'POST', messagesPath) && response.status === 202 ? editJson(response, (body) => delete body['round']) : undefined),
  },
  {
    name: 'send-back-ignored',
    breaks: ['MSG-002'],
    answer(request) {
      if (is(request, 'POST', messagesPath)) {
        try {
          const json = JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
          delete json['send_back'];
          request.body = Buffer.from(JSON.stringify(json));
        } catch {
          // Not JSON: left to the server.
        }
      }
      return undefined;
    },
  },
  {
    name: 'message-after-end-accepted',
    breaks: ['MSG-003'],
    response: (request, response) => (is(request, 'POST', messagesPath) && response.status === 409 ? answerJson(response, 202, '{}') : undefined),
  },
];
