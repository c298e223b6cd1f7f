/**
 * Every check of the suite, in the order the categories run.
 * @module
 */
import type { Check } from '../harness/check.js';
import { actionChecks } from './actions.js';
import { authChecks } from './auth.js';
import { contractChecks } from './contract.js';
import { decisionChecks } from './decisions.js';
import { exportChecks } from './exports.js';
import { idempotencyChecks } from './idempotency.js';
import { isolationChecks } from './isolation.js';
import { isolationOperationChecks } from './isolation-operations.js';
import { isolationChatChecks } from './isolation-chat.js';
import { lifecycleChecks } from './lifecycle.js';
import { longPollChecks } from './long-poll.js';
import { messageChecks } from './messages.js';
import { outcomeChecks } from './outcomes.js';
import { paginationChecks } from './pagination.js';
import { listOrderChecks } from './list-order.js';
import { planChecks } from './plans.js';
import { problemChecks } from './problems.js';
import { rateLimitChecks } from './rate-limits.js';
import { sessionMetadataChecks } from './session-metadata.js';
import { shareChecks } from './shares.js';
import { sseChecks } from './sse.js';
import { sseEndingChecks } from './sse-endings.js';
import { versioningChecks } from './versioning.js';
import { webhookPauseChecks } from './webhook-pause.js';
import { webhookRetryChecks } from './webhook-retries.js';
import { webhookSubscriptionChecks } from './webhook-subscriptions.js';
import { webhookChecks } from './webhooks.js';
import { creditChecks } from './credits.js';
import { keyRotationChecks } from './key-rotation.js';
import { givenKeyRotationChecks } from './key-rotation-keys.js';
import { tierChecks } from './tiers.js';
import { summaryStreamChecks } from './summary-stream.js';
import { sessionEventChecks } from './session-events.js';
import { consultChecks } from './consult.js';
import { synthChatChecks } from './synth-chat.js';
import { legacyWebhookChecks } from './legacy-webhook.js';
import { deliveryRetentionChecks } from './delivery-retention.js';

export const checks: readonly Check[] = [
  ...contractChecks,
  ...problemChecks,
  ...authChecks,
  ...versioningChecks,
  ...paginationChecks,
  ...listOrderChecks,
  ...idempotencyChecks,
  ...longPollChecks,
  ...sseChecks,
  ...sseEndingChecks,
  ...lifecycleChecks,
  ...sessionMetadataChecks,
  ...isolationChecks,
  ...isolationOperationChecks,
  ...isolationChatChecks,
  ...webhookChecks,
  ...webhookRetryChecks,
  ...webhookPauseChecks,
  ...webhookSubscriptionChecks,
  ...planChecks,
  ...messageChecks,
  ...decisionChecks,
  ...outcomeChecks,
  ...exportChecks,
  ...shareChecks,
  ...actionChecks,
  ...rateLimitChecks,
  ...creditChecks,
  ...keyRotationChecks,
  ...givenKeyRotationChecks,
  ...tierChecks,
  ...summaryStreamChecks,
  ...sessionEventChecks,
  ...consultChecks,
  ...synthChatChecks,
  ...legacyWebhookChecks,
  ...deliveryRetentionChecks,
];

const byName = new Map(checks.map((check) => [check.name, check]));

export function findCheck(name: string): Check | undefined {
  return byName.get(name);
}
