/**
 * The cases of `boardkit webhooks check-receiver` for the ways real deliveries arrive, beyond the
 * verification rules: out of order, again after a failed attempt, against the attempt timeout, in each
 * published envelope, and during a move to a new signing secret (docs/decisions.md "Receiver suite").
 * @module
 */
import { randomUUID } from 'node:crypto';
import { bodyForAttempt, type EnvelopeForm } from '../webhooks/events.js';
import { createDeliveryId } from '../webhooks/ids.js';
import { retrySchedules } from '../webhooks/retry.js';
import { compact, delivery, type CaseInput, type ReceiverCase } from './receiver-case.js';

/** A session id of the example, shared by the deliveries of one case. */
function sessionOf(input: CaseInput): string {
  const data = input.body['data'] as Record<string, unknown>;
  return String(data['session_id']);
}

/** The first retry wait of every published schedule (seed "Delivery, retry and pause" 2: 1 minute). */
const firstRetryWaitSeconds = retrySchedules.fourWaits.waits_minutes[0] * 60;

/** The published form per event, as that page's per-event examples show it: `id`, `type`, `data` only. */
function shortForm(body: Record<string, unknown>): Record<string, unknown> {
  return { id: body['id'], type: body['type'], data: body['data'] };
}

function envelopeCase(name: string, form: EnvelopeForm, title: string, short = false): ReceiverCase {
  return {
    name,
    requirement: 'RECV-013',
    title,
    expect: '2xx',
    requests: (input) => {
      const body = input.sample(input.event, form);
      return [delivery(input, JSON.stringify(short ? shortForm(body) : body))];
    },
    skip: (input) =>
      input.forms.includes(form)
        ? undefined
        : {
            reason: `the receiver is not checked with the ${form} envelope`,
            remedy: `--envelope ${form} or --envelope both`,
          },
  };
}

export const deliveryConditionCases: readonly ReceiverCase[] = [
  {
    name: 'receiver.out-of-order',
    requirement: 'RECV-010',
    title: 'outcomes.ready of a session, then its earlier session.complete',
    expect: '2xx',
    handledOnce: true,
    requests: (input) => {
      // A session of its own: its first delivery is its latest event.
      const sessionId = randomUUID();
      const form = input.forms[0] ?? 'seed';
      const later = input.sample('outcomes.ready', form, { sessionId, at: input.now * 1000 });
      const earlier = input.sample('session.complete', form, { sessionId, at: (input.now - 90) * 1000 });
      return [
        delivery(input, JSON.stringify(later), { event: 'outcomes.ready' }),
        delivery(input, JSON.stringify(earlier), { event: 'session.complete' }),
      ];
    },
  },
  {
    name: 'receiver.redelivery',
    requirement: 'RECV-011',
    title: 'a delivery, then its retry a minute later: the same X-Service-Delivery-Id, signed anew',
    expect: '2xx',
    handledOnce: true,
    requests: (input) => {
      const deliveryId = createDeliveryId();
      const first = compact(input);
      return [
        delivery(input, first, { deliveryId, timestamp: input.now - firstRetryWaitSeconds }),
        // A retry is signed at its own time and, in the published form, counts its attempt.
        delivery(input, bodyForAttempt(first, 2), { deliveryId }),
      ];
    },
  },
  {
    name: 'receiver.within-timeout',
    requirement: 'RECV-012',
    title: 'a delivery of session.cancelled, answered within the attempt timeout',
    expect: '2xx',
    requests: (input) => {
      const body = input.sample('session.cancelled', input.forms[0] ?? 'seed', { sessionId: sessionOf(input) });
      return [delivery(input, JSON.stringify(body), { event: 'session.cancelled' })];
    },
  },
  envelopeCase('receiver.envelope-seed', 'seed', "a delivery in the seed's envelope (event, data, …)"),
  envelopeCase(
    'receiver.envelope-published',
    'published',
    "a delivery in the webhooks page's envelope (id, type, created_at, data, delivery_attempt, api_version)",
  ),
  envelopeCase(
    'receiver.envelope-published-short',
    'published',
    "a delivery in the webhooks page's per-event form (id, type, data)",
    true,
  ),
  {
    name: 'receiver.rotation',
    requirement: 'RECV-014',
    title: 'one event from the old subscription (previous secret) and from the new one (new secret)',
    expect: '2xx',
    requests: (input) => {
      const body = compact(input);
      return [delivery(input, body, { secret: input.previousSecret ?? input.secret }), delivery(input, body)];
    },
    skip: (input) =>
      input.previousSecret === undefined
        ? { reason: 'no previous secret was given', remedy: '--previous-secret with the secret being replaced' }
        : undefined,
  },
];
