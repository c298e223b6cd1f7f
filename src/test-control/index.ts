/**
 * The reference server's test-only control plane (`boardkit serve --test-control`, docs/conformance.md
 * "Time control and fault switches"): the clock under the caller's control, and fault switches that make
 * the server break named requirements, so that the conformance suite's own tests can prove each check
 * fails an implementation that breaks it. A server started without it has none of this: `/_test/*` is an
 * unknown route and the health probe announces nothing.
 * @module
 */
import type { AppSeams } from '../server/ports/app.js';
import type { Services } from '../server/ports/services.js';
import type { ScaledClock } from '../server/core/clock.js';
import type { PostAttempt } from '../webhooks/dispatcher.js';
import { routeTable } from '../server/http/routes.js';
import { registerClockAndFaultRoutes } from './clock-and-fault-routes.js';
import { registerKeyRoutes } from './key-routes.js';
import { deliveryFaults } from './delivery-faults.js';
import { faultSwitches } from './fault-switches.js';
import { faultCatalogue } from './faults/index.js';
import { rememberRotation } from './faults/key-rotation.js';
import type { FaultState } from './faults/types.js';
import { httpFaults, routeFinder } from './http-faults.js';

export { controlHeader, controlPath } from './http-faults.js';

export interface TestControlOptions {
  clock: ScaledClock;
  /** The server's services; read once requests and deliveries arrive (they are built after this). */
  services: () => Services;
  /** The keys the server provisioned, workspace A's first. */
  keys: () => readonly string[];
}

export interface TestControl {
  /** The seam of webhook deliveries, for the dispatcher. */
  postDelivery: PostAttempt;
  /** The seams of the HTTP app: the control routes and the request, response and stream faults. */
  appSeams(): AppSeams;
}

export function createTestControl(options: TestControlOptions): TestControl {
  const memory = new Map<string, unknown>();
  const switches = faultSwitches(faultCatalogue, () => memory.clear());
  const state: FaultState = {
    clock: options.clock,
    memory,
    get services() {
      return options.services();
    },
    get keys() {
      const [a, b] = options.keys();
      return { a, b };
    },
  };
  return {
    postDelivery: deliveryFaults(switches, state),
    appSeams() {
      const http = httpFaults(switches, state, routeFinder(routeTable(state.services.document)));
      return {
        ...http,
        register(app) {
          registerClockAndFaultRoutes(app, options.clock, switches);
          registerKeyRoutes(app, options.services, (old, fresh) => rememberRotation(state, old, fresh));
          http.register(app);
        },
      };
    },
  };
}
