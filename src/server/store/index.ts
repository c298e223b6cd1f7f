/**
 * The store: one SQLite database, one module per table or concern. The webhook outbox's tables are
 * created by src/webhooks on the same database.
 * @module
 */
import { apiKeyStore } from './api-keys.js';
import { creditStore } from './credits.js';
import { openDatabase, prepareDatabase } from './database.js';
import type { SqliteDatabase, Store } from '../ports/store.js';
import { idempotencyStore } from './idempotency.js';
import { metaStore } from './meta.js';
import { outcomeStore } from './outcomes.js';
import { rateLimitStore } from './rate-limits.js';
import {
  actionStore,
  conversationStore,
  decisionStore,
  integrationStore,
  sessionMessageStore,
} from './session-records.js';
import { sessionStore } from './sessions.js';
import { shareStore } from './shares.js';
import { streamEventStore } from './stream-events.js';
import { webhookSubscriptionStore } from './webhook-subscriptions.js';
import { workspaceStore } from './workspaces.js';

export interface StoreOptions {
  /** Sessions kept in memory as answers (src/server/store/session-answers.ts); `0` keeps none. */
  keptSessions?: number;
}

export function createStore(database: SqliteDatabase | string, options: StoreOptions = {}): Store {
  const db = typeof database === 'string' ? openDatabase(database) : prepareDatabase(database);
  return {
    db,
    meta: metaStore(db),
    workspaces: workspaceStore(db),
    apiKeys: apiKeyStore(db),
    idempotency: idempotencyStore(db),
    rateLimits: rateLimitStore(db),
    credits: creditStore(db),
    sessions: sessionStore(db, options.keptSessions),
    streamEvents: streamEventStore(db),
    messages: sessionMessageStore(db),
    outcomes: outcomeStore(db),
    decisions: decisionStore(db),
    shares: shareStore(db),
    integrations: integrationStore(db),
    actions: actionStore(db),
    conversations: conversationStore(db),
    webhookSubscriptions: webhookSubscriptionStore(db),
    /** Runs `work` in one transaction (nested calls become savepoints). */
    transaction<T>(work: () => T): T {
      return db.transaction(work)();
    },
    close(): void {
      if (db.open) {
        db.close();
      }
    },
  };
}
