/**
 * Faults in credits (seed "What the service does" 8, "Errors"): charges or refunds kept out of the
 * ledger, a bare 402, a surcharge on every read, and a cancellation reported unlike its reconciliation.
 * @module
 */
import { editDeliveryJson, editJson, eventOf, is, unchanged } from './exchange-edits.js';
import type { Fault } from './types.js';

const creditsPath = /^\/credits$/;

/** Drops ledger entries of `kind` from `GET /credits`. */
function hideKind(kind: string): Fault['response'] {
  return (request, response) =>
    is(request, 'GET', creditsPath) && response.status === 200
      ? editJson(
          response,
          (body) =>
            (body['recent_usage'] = (body['recent_usage'] as Array<{ kind: string }>).filter(
              (entry) => entry.kind !== kind,
            )),
        )
      : undefined;
}

export const creditFaults: Fault[] = [
  { name: 'credits-charge-not-in-ledger', breaks: ['CRED-001'], response: hideKind('charge') },
  {
    name: 'insufficient-credits-bare',
    breaks: ['CRED-002'],
    response: (_, response) =>
      response.status === 402
        ? editJson(response, (body) => (delete body['session_estimate_credits'], delete body['topup_url']))
        : undefined,
  },
  { name: 'credits-refund-not-in-ledger', breaks: ['CRED-003'], response: hideKind('refund') },
  {
    // Every authenticated read costs a credit that no ledger entry explains.
    name: 'credits-read-surcharge',
    breaks: ['CRED-004'],
    response(request, response, state) {
      if (request.method !== 'GET' || request.headers['authorization'] === undefined) {
        return;
      }
      const reads = ((state.memory.get('surcharged-reads') as number | undefined) ?? 0) + 1;
      state.memory.set('surcharged-reads', reads);
      if (is(request, 'GET', creditsPath) && response.status === 200) {
        editJson(
          response,
          (body) => (body['balance_credits'] = Math.max(0, (body['balance_credits'] as number) - reads)),
        );
      }
    },
  },
  {
    // The cancellation is reported as if five more credits had come back than the ledger refunded.
    name: 'cancelled-refund-misreported',
    breaks: ['CRED-005'],
    event: (_, block) =>
      eventOf(block) === 'session.cancelled'
        ? block.replace(
            /^data: ?(.*)$/m,
            (_line, data: string) => `data: ${JSON.stringify(misreported(JSON.parse(data) as Amounts))}`,
          )
        : block,
    delivery: (delivery, target) =>
      editDeliveryJson(delivery, target.secret, (body) =>
        (body['event'] ?? body['type']) === 'session.cancelled' && body['data'] !== undefined
          ? (body['data'] = misreported(body['data'] as Amounts))
          : unchanged,
      ),
  },
];

type Amounts = { credits_charged?: number; credits_refunded?: number };

function misreported(data: Amounts): Amounts {
  return typeof data.credits_refunded === 'number' && typeof data.credits_charged === 'number'
    ? { ...data, credits_charged: data.credits_charged - 5, credits_refunded: data.credits_refunded + 5 }
    : data;
}
