/**
 * Withholding one webhook event: its deliveries are recorded as answered 200 but never reach the
 * receiver, as from a server that forgot to emit it.
 * @module
 */
import type { Fault } from './types.js';

export function withhold(event: string): Fault['delivery'] {
  return (delivery) => {
    if (delivery.headers['x-service-event'] === event) {
      delivery.forward = false;
      delivery.reportStatus = 200;
    }
  };
}
