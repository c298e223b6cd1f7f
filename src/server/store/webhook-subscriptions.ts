/**
 * Webhook subscriptions of each workspace. The URL, secret, event filter, retry schedule and breaker
 * live in the webhook outbox (src/webhooks); this table ties a subscription to its workspace and keeps
 * its label, its envelope form and timestamps.
 * @module
 */
import type { SubscriptionRecord } from '../ports/records.js';
import type { SqliteDatabase } from '../ports/store.js';
import { recordTable } from './records.js';

export function webhookSubscriptionStore(db: SqliteDatabase) {
  return recordTable<SubscriptionRecord>(db, 'webhook_subscriptions', 'workspace_id');
}
