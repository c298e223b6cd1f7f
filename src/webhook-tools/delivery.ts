/**
 * One delivery as the service sends it (seed "Webhook subscriptions" delivery headers; "Legacy per-key
 * webhook" for `legacy`): the body text, the signed headers, the delivery id. The developer tools build
 * every request from here, so what they send is signed exactly as the dispatcher signs.
 * @module
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { signedHeaders } from '../webhooks/delivery-request.js';
import { createDeliveryId } from '../webhooks/ids.js';
import type { TargetKind } from '../webhooks/outbox.js';

export interface OutgoingDelivery {
  kind: TargetKind;
  event: string;
  deliveryId: string;
  /** Unix seconds, as sent in the timestamp header. */
  timestamp: number;
  /** The raw body, exactly as sent. */
  body: string;
  headers: OutgoingHttpHeaders;
}

export interface DeliveryInput {
  event: string;
  secret: string;
  body: string;
  kind?: TargetKind;
  deliveryId?: string;
  /** Unix seconds; the wall clock now by default (a timestamp is transport, never simulated time). */
  timestamp?: number;
}

export function wallClockSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function signedDelivery(input: DeliveryInput): OutgoingDelivery {
  const kind = input.kind ?? 'subscription';
  const deliveryId = input.deliveryId ?? createDeliveryId();
  const timestamp = input.timestamp ?? wallClockSeconds();
  const headers = signedHeaders({
    kind,
    secret: input.secret,
    event: input.event,
    deliveryId,
    timestamp,
    body: input.body,
  });
  return { kind, event: input.event, deliveryId, timestamp, body: input.body, headers };
}
