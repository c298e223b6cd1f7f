/**
 * The deliveries listing's retention (seed "Events › Delivery, retry and pause" 4, "Limits": webhook
 * deliveries retained for inspection, the last 100 per subscription).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const deliveryRetentionRequirements: readonly RequirementDefinition[] = [
  {
    id: 'DLVR-001',
    level: 'MUST',
    category: 'delivery-retention',
    seed: 'Limits',
    provenance: 'stated',
    statement:
      'GET /v1/webhooks/{id}/deliveries shows at most the last 100 attempts of a subscription, across all its pages.',
  },
  {
    id: 'DLVR-002',
    level: 'MUST',
    category: 'delivery-retention',
    seed: 'Events › Delivery, retry and pause 4',
    provenance: 'stated',
    statement: 'Once a subscription has had more than 100 attempts, the listing keeps the newest and drops the oldest.',
  },
];
