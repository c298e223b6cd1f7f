/**
 * `boardkit webhooks resend <delivery-id>`: sends one delivery that `boardkit serve` made again, from the
 * server's store, to its receiver or another URL (after `stripe events resend` and Svix's replay). The
 * store keeps every delivery's body (the outbox, so that each attempt sends the same bytes) with its
 * target's URL and secret; the store is opened read-only, so a running server is not disturbed and the
 * resend is not one of its attempts. The delivery is signed anew at the wall clock: a timestamp from the
 * past would be refused after 300 seconds (seed "Limits").
 * @module
 */
import Database from 'better-sqlite3';
import { bodyForAttempt } from '../webhooks/events.js';
import { checkWebhookSecret } from '../webhooks/ids.js';
import { createSqliteOutbox } from '../webhooks/sqlite-outbox.js';
import type { DeliveryRecord, TargetState } from '../webhooks/outbox.js';
import { signedDelivery } from './delivery.js';
import { receiverSender, type SendOptions } from './send.js';
import type { TriggerResult } from './trigger.js';

export interface ResendOptions extends Partial<SendOptions> {
  /** The server's database file (`boardkit serve --db`). */
  db: string;
  deliveryId: string;
  /** The signing secret; the delivery's subscription's by default. */
  secret?: string;
  /** Send under a new delivery id, as a new delivery; by default the same id, as a retry of it. */
  newId?: boolean;
}

/** Thrown when the store or the delivery cannot be found: nothing was sent. */
export class ResendError extends Error {
  override name = 'ResendError';
}

interface Stored {
  delivery: DeliveryRecord;
  target: TargetState;
}

/** The delivery and its target, read from the store without writing to it. */
export function readStoredDelivery(file: string, deliveryId: string): Stored {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new ResendError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    // The outbox's migration only creates what is missing; on a read-only store of a server it creates nothing.
    const outbox = createSqliteOutbox(db);
    const delivery = outbox.getDelivery(deliveryId);
    const target = delivery === undefined ? undefined : outbox.getTarget(delivery.targetId);
    if (delivery === undefined || target === undefined) {
      throw new ResendError(
        `${file} holds no delivery ${deliveryId} (ids are X-Service-Delivery-Id, or delivery_id in GET /v1/webhooks/{id}/deliveries)`,
      );
    }
    return { delivery, target };
  } catch (error) {
    if (error instanceof ResendError) {
      throw error;
    }
    throw new ResendError(`${file} is not a store of boardkit serve: ${error instanceof Error ? error.message : ''}`);
  } finally {
    db.close();
  }
}

export async function resendDelivery(options: ResendOptions): Promise<TriggerResult & { url: string }> {
  const { delivery, target } = readStoredDelivery(options.db, options.deliveryId);
  const secret = options.secret ?? target.secret;
  checkWebhookSecret(secret, '--secret');
  const url = options.url ?? target.url;
  const send = await receiverSender({ ...options, url });
  const newId = options.newId === true;
  const sent = signedDelivery({
    kind: target.kind,
    event: delivery.event,
    secret,
    // The next attempt's number in the published envelope, or 1 for a new delivery; the seed's is unchanged.
    body: bodyForAttempt(delivery.body, newId ? 1 : delivery.attemptsMade + 1),
    ...(newId ? {} : { deliveryId: delivery.id }),
  });
  return { url, delivery: sent, answer: await send(sent) };
}
