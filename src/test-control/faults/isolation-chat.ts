/**
 * A fault in the workspace isolation of the 1-on-1 chat (seed "Authentication" 3): workspace B's chat
 * turns are served as workspace A's, so B continues A's conversations and draws on A's sessions.
 * @module
 */
import { keyOf, useKeyA } from './exchange-edits.js';
import type { Fault } from './types.js';

export const isolationChatFaults: Fault[] = [
  {
    name: 'isolation-off-chat',
    breaks: ['ISO-011'],
    request(request, state) {
      if (request.url.pathname === '/v1/synths/chat' && keyOf(request, state) === 'b') {
        useKeyA(request, state);
      }
    },
  },
];
