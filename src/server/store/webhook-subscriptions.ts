/**
 * Webhook subscriptions of each workspace. The URL, secret, event filter, retry schedule and breaker
 * live in the webhook outbox (src/webhooks); this table ties a subscription to its workspace and keeps
 * its label and timestamps.
 * @module
 */
import type { SqliteDatabase } from './database.js';
import { recordTable } from './records.js';

export interface SubscriptionRecord {
  label: string;
  created_at: string;
  updated_at: string;
}

export function webhookSubscriptionStore(db: SqliteDatabase) {
  return recordTable<SubscriptionRecord>(db, 'webhook_subscriptions', 'workspace_id');
}
