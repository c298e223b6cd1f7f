/**
 * Faults in long-polling (seed "Long-polling"): `wait_ms` is ignored, or its maximum is not enforced.
 * @module
 */
import type { Fault } from './types.js';

export const longPollingFaults: Fault[] = [
  {
    name: 'longpoll-ignore-wait',
    breaks: ['POLL-001', 'POLL-002'],
    request: (request) => void request.url.searchParams.delete('wait_ms'),
  },
  {
    name: 'longpoll-no-max',
    breaks: ['POLL-003'],
    request(request) {
      if (Number(request.url.searchParams.get('wait_ms')) > 60_000) {
        request.url.searchParams.set('wait_ms', '60000');
      }
    },
  },
];
