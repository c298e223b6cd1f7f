/**
 * Faults in the session's own webhook events (seed "Events › Event types and data"): session.created
 * never sent, session.continued and session.reconvened with the wrong round, reconvening refused,
 * session.failed without its error code.
 * @module
 */
import { ProblemError } from '../../server/core/problems.js';
import { editDeliveryJson, is, unchanged } from './exchange-edits.js';
import type { DeliveryTarget, Fault, FaultDelivery } from './types.js';

/** Changes the data of one event's deliveries, re-signed so that only the data is wrong. */
function editData(event: string, edit: (data: Record<string, unknown>) => void): Fault['delivery'] {
  return (delivery: FaultDelivery, target: DeliveryTarget) =>
    editDeliveryJson(delivery, target.secret, (body) =>
      (body['event'] ?? body['type']) === event ? edit(body['data'] as Record<string, unknown>) : unchanged,
    );
}

export const sessionEventFaults: Fault[] = [
  {
    name: 'session-created-not-sent',
    breaks: ['SEVT-001'],
    delivery(delivery) {
      if (delivery.headers['x-service-event'] === 'session.created') {
        delivery.forward = false;
        delivery.reportStatus = 200;
      }
    },
  },
  {
    name: 'session-continued-wrong-round',
    breaks: ['SEVT-002'],
    delivery: editData('session.continued', (data) => (data['round_number'] = 1)),
  },
  {
    name: 'reconvene-refused',
    breaks: ['SEVT-003'],
    answer: (request) =>
      is(request, 'POST', /\/reconvene$/) ? new ProblemError(409, 'This session cannot be reconvened.') : undefined,
  },
  {
    name: 'session-reconvened-without-source',
    breaks: ['SEVT-004'],
    delivery: editData('session.reconvened', (data) => (data['source_session_id'] = data['session_id'])),
  },
  {
    name: 'session-failed-without-error',
    breaks: ['SEVT-005'],
    delivery: editData('session.failed', (data) => (delete data['error_code'], delete data['error_message'])),
  },
];
