/**
 * The records that hang off a session (its messages, decisions) or a workspace (its integrations,
 * action executions, 1-on-1 conversations), each kept as its contract-shaped JSON.
 * @module
 */
import type { ConversationRecord } from '../ports/records.js';
import type { components } from '../../generated/openapi.js';
import type { SqliteDatabase } from '../ports/store.js';
import { recordTable } from './records.js';

type Schemas = components['schemas'];

export function sessionMessageStore(db: SqliteDatabase) {
  return recordTable<Schemas['SessionMessage']>(db, 'session_messages', 'session_id');
}

export function decisionStore(db: SqliteDatabase) {
  return recordTable<Schemas['Decision']>(db, 'decisions', 'session_id');
}

export function integrationStore(db: SqliteDatabase) {
  return recordTable<Schemas['Integration']>(db, 'integrations', 'workspace_id');
}

export function actionStore(db: SqliteDatabase) {
  return recordTable<Schemas['ActionExecution']>(db, 'actions', 'workspace_id');
}

export function conversationStore(db: SqliteDatabase) {
  return recordTable<ConversationRecord>(db, 'conversations', 'workspace_id');
}
