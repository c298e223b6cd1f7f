/**
 * Webhooks (seed "Events › Webhook subscriptions", "Delivery, retry and pause"), tested with a receiver
 * the suite hosts on 127.0.0.1.
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const webhookRequirements: readonly RequirementDefinition[] = [
  {
    id: 'HOOK-001',
    level: 'MUST',
    category: 'webhooks',
    seed: 'Endpoints',
    provenance: 'stated',
    statement:
      'POST /v1/webhooks answers ok, the subscription, the signing secret and verify instructions; the secret is never shown again.',
  },
  {
    id: 'HOOK-002',
    level: 'MUST',
    category: 'webhooks',
    seed: 'Events › Webhook subscriptions',
    provenance: 'stated',
    statement:
      "A delivery is a POST with a JSON body, Content-Type application/json, the fixed User-Agent and X-Service-Event equal to the event the body names (`event` in the seed's envelope, `type` in the published one).",
  },
  {
    id: 'HOOK-003',
    level: 'MUST',
    category: 'webhooks',
    seed: 'Events › Webhook subscriptions › Verification rules 1',
    provenance: 'stated',
    statement:
      'X-Service-Signature is sha256= and the hex HMAC-SHA256 of "<timestamp>.<raw_body>" keyed with the signing secret.',
  },
  {
    id: 'HOOK-004',
    level: 'MUST',
    category: 'webhooks',
    seed: 'Events › Webhook subscriptions › Verification rules 2',
    provenance: 'stated',
    statement:
      "X-Service-Timestamp is Unix seconds of the wall clock, within 300 seconds of the receiver's clock at delivery, whatever the target's time scale.",
  },
  {
    id: 'HOOK-005',
    level: 'MUST',
    category: 'webhooks',
    seed: 'Events › Webhook subscriptions',
    provenance: 'stated',
    statement: 'Each delivery carries an X-Service-Delivery-Id that no other delivery carries.',
  },
  {
    id: 'HOOK-006',
    level: 'MUST',
    category: 'webhooks',
    seed: 'Events › Envelope',
    provenance: 'stated',
    statement:
      "Every delivered body validates against its event's schema, in an envelope the profile accepts (by default the seed's or the published one), and its event is one of the deployment's published event list.",
  },
  {
    id: 'HOOK-007',
    level: 'MUST',
    category: 'webhooks',
    seed: 'Events › Delivery, retry and pause 4',
    provenance: 'stated',
    statement:
      'GET /v1/webhooks/{id}/deliveries lists the attempts the receiver saw, with their response codes and retry timestamps.',
  },
  {
    id: 'HOOK-008',
    level: 'MUST',
    category: 'webhooks',
    seed: 'Events › Delivery, retry and pause 2',
    provenance: 'variant',
    statement:
      "A failing receiver gets retries after the published waits (1, 5, 15, 60 and optionally 240 minutes) until the schedule's last attempt, and no more.",
  },
  {
    id: 'HOOK-009',
    level: 'MUST',
    category: 'webhooks',
    seed: 'Events › Delivery, retry and pause 3',
    provenance: 'stated',
    statement: 'After 10 consecutive failed deliveries the subscription pauses and receives nothing further.',
  },
  {
    id: 'HOOK-010',
    level: 'MUST',
    category: 'webhooks',
    seed: 'Events › Delivery, retry and pause 1',
    provenance: 'stated',
    statement: 'Any 2xx answer completes a delivery: it is not retried.',
  },
  {
    id: 'HOOK-011',
    level: 'SHOULD',
    category: 'webhooks',
    seed: 'Events › Webhook subscriptions',
    provenance: 'designed',
    statement:
      'No delivery reaches an address that is not public (private, loopback, link-local, unspecified): a subscription to one is accepted, and each of its attempts fails without a response.',
    references: ['docs/decisions.md › Webhooks'],
  },
  {
    id: 'HOOK-012',
    level: 'MUST',
    category: 'webhooks',
    seed: 'Events › Webhook subscriptions',
    provenance: 'stated',
    statement: 'A subscription receives only the events it subscribed to.',
  },
  {
    id: 'HOOK-013',
    level: 'SHOULD',
    category: 'webhooks',
    seed: 'Events › Webhook subscriptions',
    provenance: 'designed',
    statement:
      'Every retry of one delivery keeps its X-Service-Delivery-Id and is signed anew with the wall-clock time of the attempt.',
    references: ['docs/decisions.md › Webhooks'],
  },
  {
    id: 'HOOK-014',
    level: 'SHOULD',
    category: 'webhooks',
    seed: 'Events › Delivery, retry and pause 3',
    provenance: 'stated',
    statement: 'Re-enabling a paused subscription resets its breaker and resumes deliveries.',
  },
  {
    id: 'HOOK-015',
    level: 'SHOULD',
    category: 'webhooks',
    seed: 'Endpoints',
    provenance: 'designed',
    statement:
      'PATCH /v1/webhooks/{id} changes the label and the event filter it names, keeps the rest, and a read shows the change.',
    references: ['docs/decisions.md › Webhooks'],
  },
  {
    id: 'HOOK-016',
    level: 'SHOULD',
    category: 'webhooks',
    seed: 'Versioning 1',
    provenance: 'variant',
    statement:
      'A subscription created at the unversioned /webhooks is the same subscription at /v1/webhooks, and both paths read and list it alike.',
    references: ['docs/decisions.md › Addresses and versions'],
  },
  {
    id: 'HOOK-017',
    level: 'SHOULD',
    category: 'webhooks',
    seed: 'Versioning 1',
    provenance: 'variant',
    statement:
      'Updating and deleting a subscription through the unversioned /webhooks paths changes the subscription /v1/webhooks shows.',
    references: ['docs/decisions.md › Addresses and versions'],
  },
  {
    id: 'HOOK-018',
    level: 'SHOULD',
    category: 'webhooks',
    seed: 'Events › Delivery, retry and pause 3',
    provenance: 'variant',
    statement:
      'Re-enabling a paused subscription through the unversioned /webhooks/{id}/enable resets its breaker as /v1/webhooks/{id}/enable does.',
    references: ['docs/decisions.md › Addresses and versions'],
  },
];
