/**
 * Every check of the suite, in the order the categories run.
 * @module
 */
import { authChecks } from './auth.js';
import { contractChecks } from './contract.js';
import { idempotencyChecks } from './idempotency.js';
import { isolationChecks } from './isolation.js';
import { lifecycleChecks } from './lifecycle.js';
import { longPollChecks } from './long-poll.js';
import { paginationChecks } from './pagination.js';
import { problemChecks } from './problems.js';
import { rateLimitChecks } from './rate-limits.js';
import { sessionMetadataChecks } from './session-metadata.js';
import { sseChecks } from './sse.js';
import { sseEndingChecks } from './sse-endings.js';
import type { Check } from './types.js';
import { versioningChecks } from './versioning.js';
import { webhookRetryChecks } from './webhook-retries.js';
import { webhookSubscriptionChecks } from './webhook-subscriptions.js';
import { webhookChecks } from './webhooks.js';

export * from './types.js';

export const checks: readonly Check[] = [
  ...contractChecks,
  ...problemChecks,
  ...authChecks,
  ...versioningChecks,
  ...paginationChecks,
  ...idempotencyChecks,
  ...longPollChecks,
  ...sseChecks,
  ...sseEndingChecks,
  ...lifecycleChecks,
  ...sessionMetadataChecks,
  ...isolationChecks,
  ...webhookChecks,
  ...webhookRetryChecks,
  ...webhookSubscriptionChecks,
  ...rateLimitChecks,
];

const byName = new Map(checks.map((check) => [check.name, check]));

export function findCheck(name: string): Check | undefined {
  return byName.get(name);
}
