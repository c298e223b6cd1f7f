/**
 * `GET /v1/health`: the unauthenticated probe (seed "Authentication" 9). It names the version and the
 * published variants this deployment follows: webhook event list variant 1 (the six events of the seed's
 * event table) and the four-wait retry schedule.
 * @module
 */
import { webhookEventLists } from '../../webhooks/events.js';
import { retrySchedules } from '../../webhooks/retry.js';
import { isoAt } from '../clock.js';
import type { Handler } from '../handler-types.js';

export const getHealth: Handler<'getHealth'> = (_request, { services }) => ({
  status: 200,
  body: {
    status: 'ok',
    api_version: services.versions.current,
    time: isoAt(services.clock.now()),
    region: services.settings.region,
    webhook_event_list: webhookEventLists[1],
    webhook_retry_schedule: retrySchedules.fourWaits,
  },
});
