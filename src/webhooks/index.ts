/**
 * Webhooks of the Decision-Board service (seed "Events"): the event catalogue, signing and verifying,
 * retry schedules, the URL guard, and the dispatcher over a durable outbox.
 * @module
 */
export * from './events.js';
export * from './headers.js';
export * from './retry.js';
export * from './signing.js';
export { createAttemptId, createDeliveryId, createEventId } from './ids.js';
export * from './url-guard.js';
export * from './outbox.js';
export { createMemoryOutbox } from './memory-outbox.js';
export { createSqliteOutbox, migrate, type SqliteDatabase, type SqliteStatement } from './sqlite-outbox.js';
export {
  keptBodyLimit,
  postDelivery,
  signedHeaders,
  type KeptResponse,
  type PostInput,
  type PostResult,
  type SignedHeadersInput,
} from './delivery-request.js';
export * from './dispatcher.js';
