/**
 * The fault catalogue of the reference server's test-only fault switches (docs/conformance.md "Time
 * control and fault switches"), grouped by what the faults break. Each fault names the requirements of
 * the conformance suite it breaks; the suite's own tests switch each one on and prove the suite fails
 * exactly those.
 * @module
 */
import { actionFaults } from './actions.js';
import { authFaults } from './auth.js';
import { contractFaults } from './contract.js';
import { decisionFaults } from './decisions.js';
import { eventStreamFaults } from './event-stream.js';
import { exportFaults } from './exports.js';
import { idempotencyFaults } from './idempotency.js';
import { isolationFaults } from './isolation.js';
import { isolationChatFaults } from './isolation-chat.js';
import { lifecycleFaults } from './lifecycle.js';
import { longPollingFaults } from './long-polling.js';
import { messageFaults } from './messages.js';
import { outcomeFaults } from './outcomes.js';
import { paginationFaults } from './pagination.js';
import { planFaults } from './plans.js';
import { problemFaults } from './problems.js';
import { rateLimitFaults } from './rate-limits.js';
import { sessionMetadataFaults } from './session-metadata.js';
import { shareFaults } from './shares.js';
import type { Fault } from './types.js';
import { versioningFaults } from './versioning.js';
import { webhookSubscriptionFaults } from './webhook-subscriptions.js';
import { webhookFaults } from './webhooks.js';
import { creditFaults } from './credits.js';
import { keyRotationFaults } from './key-rotation.js';
import { tierFaults } from './tiers.js';
import { summaryStreamFaults } from './summary-stream.js';
import { sessionEventFaults } from './session-events.js';
import { consultFaults } from './consult.js';
import { synthChatFaults } from './synth-chat.js';
import { legacyWebhookFaults } from './legacy-webhook.js';
import { deliveryRetentionFaults } from './delivery-retention.js';

export type { Fault } from './types.js';

export const faultCatalogue: readonly Fault[] = [
  ...authFaults,
  ...versioningFaults,
  ...idempotencyFaults,
  ...longPollingFaults,
  ...isolationFaults,
  ...isolationChatFaults,
  ...rateLimitFaults,
  ...problemFaults,
  ...contractFaults,
  ...paginationFaults,
  ...lifecycleFaults,
  ...sessionMetadataFaults,
  ...eventStreamFaults,
  ...webhookFaults,
  ...webhookSubscriptionFaults,
  ...planFaults,
  ...messageFaults,
  ...decisionFaults,
  ...outcomeFaults,
  ...exportFaults,
  ...shareFaults,
  ...actionFaults,
  ...creditFaults,
  ...keyRotationFaults,
  ...tierFaults,
  ...summaryStreamFaults,
  ...sessionEventFaults,
  ...consultFaults,
  ...synthChatFaults,
  ...legacyWebhookFaults,
  ...deliveryRetentionFaults,
];
