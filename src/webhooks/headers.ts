/**
 * The header names of a webhook delivery, in one place (seed "Webhook subscriptions" delivery headers and
 * "Legacy per-key webhook"). The seed's brand prefix is written with the neutral word `Service`.
 * @module
 */

/** Headers of a delivery to a webhook subscription. */
export const deliveryHeaders = {
  event: 'X-Service-Event',
  signature: 'X-Service-Signature',
  timestamp: 'X-Service-Timestamp',
  deliveryId: 'X-Service-Delivery-Id',
} as const;

/** Headers of a delivery to the deprecated per-key webhook URL. */
export const legacyDeliveryHeaders = {
  event: 'X-Mcp-Event',
  signature: 'X-Mcp-Signature',
  timestamp: 'X-Mcp-Timestamp',
  deliveryId: 'X-Mcp-Delivery-Id',
} as const;

/** The fixed product string of the sender (`x-webhook-delivery.user_agent`). */
export const webhookUserAgent = 'Service-Webhooks/1.0';

/** Every delivery body is JSON (`x-webhook-delivery.content_type`). */
export const webhookContentType = 'application/json';

/** A header source: Node's `IncomingHttpHeaders`, a plain record, or a Fetch `Headers`. */
export type HeaderSource =
  { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The value of a header, case-insensitively; the first one when it was sent several times. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers.get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const wanted = name.toLowerCase();
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === wanted);
  const value = key === undefined ? undefined : record[key];
  return typeof value === 'string' ? value : value?.[0];
}
