/**
 * The receiver registry: the rules a webhook receiver must follow (seed "Events › Webhook subscriptions",
 * its verification rules, and "Delivery, retry and pause"), tested by `boardkit webhooks check-receiver`
 * against a receiver the user runs. A registry of its own: the implementation suite never runs it, and its
 * checks are the delivery cases of `src/webhook-tools/receiver-cases.ts`, named here in `checks`.
 * @module
 */
import type { Requirement } from './types.js';

export const receiverRequirements: readonly Requirement[] = [
  {
    id: 'RECV-001',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Delivery, retry and pause 1',
    provenance: 'stated',
    statement: 'A delivery signed as the service signs it, with every header, is answered 2xx.',
    checks: ['receiver.valid'],
  },
  {
    id: 'RECV-002',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Webhook subscriptions',
    provenance: 'stated',
    statement:
      'The same delivery sent again (same X-Service-Delivery-Id) is answered 2xx, and handled once where the receiver shows what it handled.',
    checks: ['receiver.duplicate'],
  },
  {
    id: 'RECV-003',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Webhook subscriptions › Verification rules 4',
    provenance: 'stated',
    statement:
      'A signature that does not match (another secret, one flipped byte of the body, the hex without "sha256=") is answered 401.',
    checks: ['receiver.other-secret', 'receiver.flipped-byte', 'receiver.bare-hex'],
  },
  {
    id: 'RECV-004',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Webhook subscriptions › Verification rules 2',
    provenance: 'stated',
    statement:
      "A timestamp more than 300 seconds from the receiver's clock, 301 seconds old or 301 seconds ahead, is answered 401.",
    checks: ['receiver.stale', 'receiver.ahead'],
  },
  {
    id: 'RECV-005',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Webhook subscriptions › Verification rules 3',
    provenance: 'stated',
    statement: 'A delivery without X-Service-Signature or without X-Service-Timestamp is answered 400.',
    checks: ['receiver.no-signature', 'receiver.no-timestamp'],
  },
  {
    id: 'RECV-006',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Webhook subscriptions › Verification rules 1',
    provenance: 'stated',
    statement:
      'The HMAC covers the raw body bytes: the signed body re-serialised as other JSON text with the same value is answered 401.',
    checks: ['receiver.reserialised'],
  },
  {
    id: 'RECV-007',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Webhook subscriptions › Verification rules 4',
    provenance: 'stated',
    statement: 'A legacy-format signature (the HMAC of the body alone) on a subscription delivery is answered 401.',
    checks: ['receiver.legacy-signature'],
  },
  {
    id: 'RECV-008',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Webhook subscriptions › Verification rules 1',
    provenance: 'stated',
    statement: 'A large delivery (256 KiB of body) verifies and is answered 2xx.',
    checks: ['receiver.large'],
  },
  {
    id: 'RECV-009',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Webhook subscriptions › Verification rules 1',
    provenance: 'stated',
    statement: 'A delivery whose body holds non-ASCII text as UTF-8 verifies and is answered 2xx.',
    checks: ['receiver.unicode'],
  },
  {
    id: 'RECV-010',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Delivery, retry and pause 2',
    provenance: 'designed',
    statement:
      'Events of one session delivered out of order (outcomes.ready before its earlier session.complete) are each answered 2xx, and each handled, where the receiver shows what it handled.',
    checks: ['receiver.out-of-order'],
    references: ['docs/decisions.md › Receiver suite'],
  },
  {
    id: 'RECV-011',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Delivery, retry and pause 2',
    provenance: 'stated',
    statement:
      'The retry of a delivery (the same X-Service-Delivery-Id, signed anew a minute later) is answered 2xx, and the delivery handled once, where the receiver shows what it handled.',
    checks: ['receiver.redelivery'],
  },
  {
    id: 'RECV-012',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Delivery, retry and pause 1',
    provenance: 'designed',
    statement:
      "A delivery is answered within the contract's attempt timeout (x-webhook-delivery.attempt_timeout_seconds, 10 seconds).",
    checks: ['receiver.within-timeout'],
  },
  {
    id: 'RECV-013',
    level: 'MUST',
    category: 'receiver',
    seed: 'Events › Envelope',
    provenance: 'variant',
    statement:
      "A delivery in each envelope form the receiver's subscriptions may choose (the seed's; the webhooks page's, full and per event) is answered 2xx.",
    checks: ['receiver.envelope-seed', 'receiver.envelope-published', 'receiver.envelope-published-short'],
  },
  {
    id: 'RECV-014',
    level: 'SHOULD',
    category: 'receiver',
    seed: 'Events › Webhook subscriptions',
    provenance: 'designed',
    statement:
      'While it moves to a new subscription and secret, the receiver answers 2xx to deliveries signed with the previous secret and with the new one.',
    checks: ['receiver.rotation'],
    references: ['docs/decisions.md › Receiver suite'],
  },
];

const byId = new Map(receiverRequirements.map((requirement) => [requirement.id, requirement]));

export function findReceiverRequirement(id: string): Requirement | undefined {
  return byId.get(id);
}
