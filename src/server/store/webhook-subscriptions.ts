/**
 * Webhook subscriptions of each workspace. The URL, secret, event filter, retry schedule and breaker
 * live in the webhook outbox (src/webhooks); this table ties a subscription to its workspace and keeps
 * its label, its envelope form and timestamps.
 * @module
 */
import type { EnvelopeForm } from '../../webhooks/events.js';
import type { SqliteDatabase } from './database.js';
import { recordTable } from './records.js';

export interface SubscriptionRecord {
  label: string;
  /** The envelope the subscription chose; the server's default when absent. */
  envelope?: EnvelopeForm;
  created_at: string;
  updated_at: string;
}

export function webhookSubscriptionStore(db: SqliteDatabase) {
  return recordTable<SubscriptionRecord>(db, 'webhook_subscriptions', 'workspace_id');
}
