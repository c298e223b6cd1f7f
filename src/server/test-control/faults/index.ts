/**
 * The fault catalogue of the reference server's test-only fault switches (docs/conformance.md "Time
 * control and fault switches"), grouped by what the faults break. Each fault names the requirements of
 * the conformance suite it breaks; the suite's own tests switch each one on and prove the suite fails
 * exactly those.
 * @module
 */
import { authFaults } from './auth.js';
import { contractFaults } from './contract.js';
import { eventStreamFaults } from './event-stream.js';
import { idempotencyFaults } from './idempotency.js';
import { isolationFaults } from './isolation.js';
import { lifecycleFaults } from './lifecycle.js';
import { longPollingFaults } from './long-polling.js';
import { paginationFaults } from './pagination.js';
import { problemFaults } from './problems.js';
import { rateLimitFaults } from './rate-limits.js';
import { sessionMetadataFaults } from './session-metadata.js';
import type { Fault } from './types.js';
import { versioningFaults } from './versioning.js';
import { webhookSubscriptionFaults } from './webhook-subscriptions.js';
import { webhookFaults } from './webhooks.js';

export type { Fault } from './types.js';

export const faultCatalogue: readonly Fault[] = [
  ...authFaults,
  ...versioningFaults,
  ...idempotencyFaults,
  ...longPollingFaults,
  ...isolationFaults,
  ...rateLimitFaults,
  ...problemFaults,
  ...contractFaults,
  ...paginationFaults,
  ...lifecycleFaults,
  ...sessionMetadataFaults,
  ...eventStreamFaults,
  ...webhookFaults,
  ...webhookSubscriptionFaults,
];
