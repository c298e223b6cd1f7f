/**
 * The requirement registry: every rule the suite tests, one module per category. Each check declares the
 * requirements it judges (conformance/checks), so a requirement's list of checks is derived here from
 * those declarations, never written twice.
 * @module
 */
import { checks } from '../checks/index.js';
import { actionRequirements } from './actions.js';
import { authRequirements } from './auth.js';
import { contractRequirements } from './contract.js';
import { decisionRequirements } from './decisions.js';
import { exportRequirements } from './exports.js';
import { idempotencyRequirements } from './idempotency.js';
import { isolationRequirements } from './isolation.js';
import { lifecycleRequirements } from './lifecycle.js';
import { longPollRequirements } from './long-poll.js';
import { messageRequirements } from './messages.js';
import { outcomeRequirements } from './outcomes.js';
import { paginationRequirements } from './pagination.js';
import { planRequirements } from './plans.js';
import { problemRequirements } from './problems.js';
import { rateLimitRequirements } from './rate-limits.js';
import { shareRequirements } from './shares.js';
import { sseRequirements } from './sse.js';
import type { Requirement, RequirementDefinition } from './types.js';
import { versioningRequirements } from './versioning.js';
import { webhookRequirements } from './webhooks.js';
import { creditRequirements } from './credits.js';
import { keyRotationRequirements } from './key-rotation.js';
import { tierRequirements } from './tiers.js';
import { summaryStreamRequirements } from './summary-stream.js';
import { sessionEventRequirements } from './session-events.js';
import { consultRequirements } from './consult.js';
import { synthChatRequirements } from './synth-chat.js';
import { legacyWebhookRequirements } from './legacy-webhook.js';
import { deliveryRetentionRequirements } from './delivery-retention.js';

export * from './types.js';

const definitions: readonly RequirementDefinition[] = [
  ...contractRequirements,
  ...problemRequirements,
  ...authRequirements,
  ...versioningRequirements,
  ...paginationRequirements,
  ...idempotencyRequirements,
  ...longPollRequirements,
  ...sseRequirements,
  ...lifecycleRequirements,
  ...isolationRequirements,
  ...webhookRequirements,
  ...planRequirements,
  ...messageRequirements,
  ...decisionRequirements,
  ...outcomeRequirements,
  ...exportRequirements,
  ...shareRequirements,
  ...actionRequirements,
  ...rateLimitRequirements,
  ...creditRequirements,
  ...keyRotationRequirements,
  ...tierRequirements,
  ...summaryStreamRequirements,
  ...sessionEventRequirements,
  ...consultRequirements,
  ...synthChatRequirements,
  ...legacyWebhookRequirements,
  ...deliveryRetentionRequirements,
];

export const requirements: readonly Requirement[] = definitions.map((definition) => ({
  ...definition,
  checks: checks.filter((check) => check.requirements.includes(definition.id)).map((check) => check.name),
}));

const byId = new Map(requirements.map((requirement) => [requirement.id, requirement]));

export function findRequirement(id: string): Requirement | undefined {
  return byId.get(id);
}
