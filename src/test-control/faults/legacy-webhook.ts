/**
 * Faults in the deprecated per-key webhook (seed "Events › Legacy per-key webhook (deprecated)"): never
 * sent, signed like the subscriptions (timestamp included), and firing for a cancellation too.
 * @module
 */
import { createHash } from 'node:crypto';
import { signDelivery, signLegacyDelivery } from '../../webhooks/signing.js';
import type { Fault, FaultDelivery } from './types.js';

const isLegacy = (delivery: FaultDelivery): boolean => delivery.headers['x-mcp-event'] !== undefined;

export const legacyWebhookFaults: Fault[] = [
  {
    name: 'legacy-webhook-silent',
    breaks: ['LEG-001'],
    delivery(delivery) {
      if (isLegacy(delivery)) {
        delivery.forward = false;
      }
    },
  },
  {
    name: 'legacy-signed-with-timestamp',
    breaks: ['LEG-002'],
    delivery(delivery, target) {
      const timestamp = delivery.headers['x-mcp-timestamp'];
      if (isLegacy(delivery) && timestamp !== undefined) {
        delivery.headers['x-mcp-signature'] = signDelivery({
          secret: target.secret,
          timestamp,
          rawBody: delivery.body,
        });
      }
    },
  },
  {
    name: 'legacy-hears-cancellation',
    breaks: ['LEG-003'],
    // Each completion is followed by a session.cancelled, as a legacy URL wired to every event would hear.
    delivery(delivery, target) {
      if (!isLegacy(delivery)) {
        return;
      }
      const body = JSON.parse(delivery.body) as Record<string, unknown>;
      const copy: FaultDelivery = {
        headers: { ...delivery.headers, 'x-mcp-event': 'session.cancelled' },
        body: JSON.stringify({ ...body, event: 'session.cancelled' }),
        forward: true,
        guarded: true,
        reportStatus: undefined,
        extra: [],
      };
      copy.headers['x-mcp-delivery-id'] = `dlv_${createHash('sha256')
        .update(delivery.headers['x-mcp-delivery-id'] ?? '')
        .digest('hex')
        .slice(0, 20)}`;
      copy.headers['x-mcp-signature'] = signLegacyDelivery({ secret: target.secret, rawBody: copy.body });
      delivery.extra.push(copy);
    },
  },
];
