/**
 * `GET /v1/health`: the unauthenticated probe (seed "Authentication" 9). It names the version and the
 * published variants this deployment follows: webhook event list variant 1 (the six events of the seed's
 * event table) and its retry schedule (four waits unless started with five).
 * @module
 */
import { webhookEventLists } from '../../../webhooks/events.js';
import { isoAt } from '../../core/clock.js';
import type { Handler } from '../../ports/handlers.js';

export const getHealth: Handler<'getHealth'> = (_request, { services }) => ({
  status: 200,
  body: {
    status: 'ok',
    api_version: services.versions.current,
    time: isoAt(services.clock.now()),
    region: services.settings.region,
    webhook_event_list: webhookEventLists[1],
    webhook_retry_schedule: services.settings.retrySchedule,
  },
});
