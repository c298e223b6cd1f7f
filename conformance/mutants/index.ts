/**
 * The catalogue of faults of the mutant proxy, each naming the requirements it breaks.
 * @module
 */
import { deliveryFaults } from './faults-deliveries.js';
import { requestFaults } from './faults-requests.js';
import { responseFaults } from './faults-responses.js';
import type { Fault } from './types.js';

export const faults: readonly Fault[] = [...requestFaults, ...responseFaults, ...deliveryFaults];

/** The ten faults the issue names (conformance self-verification). */
export const namedInTheIssue = [
  'idempotency-ignore-key',
  'problem-as-json',
  'leak-other-workspace',
  'webhook-bad-signature',
  'webhook-stale-timestamp',
  'webhook-skip-retries',
  'sse-drop-on-resume',
  'omit-version-header',
  'page-repeat-item',
  'auth-accept-missing-token',
] as const;
