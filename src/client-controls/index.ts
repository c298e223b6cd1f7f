/**
 * The reference server's controls for client teams (`boardkit serve --client-controls`, docs/testing.md
 * "Client-team controls"): a request journal, faults for the next requests of an operation, a session
 * moved to an end state, the clock advanced, and a reset, under `/_controls/v1`. A public, versioned part
 * of the kit, kept apart from the conformance fault switches of src/test-control. A server started without
 * it has none of this: `/_controls/*` is an unknown route.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import type { DataReset } from '../server/domain/data-reset.js';
import type { Services } from '../server/ports/services.js';
import { registerJournalAndFaults } from './hooks.js';
import { requestJournal } from './journal.js';
import { nextFaults } from './next-faults.js';
import { registerClientControlRoutes } from './routes.js';

export { clientControlsPath } from './hooks.js';

export interface ClientControls {
  /** Adds the routes and the journal and fault hooks, before the app's own. */
  register(app: FastifyInstance): void;
}

/**
 * `services` is read once requests arrive (the services are built after this), `resetData` once a data
 * reset is asked for (the snapshot of the start is taken once the start's data is in).
 */
export function createClientControls(services: () => Services, resetData: () => DataReset): ClientControls {
  const journal = requestJournal();
  const faults = nextFaults();
  return {
    register(app) {
      registerJournalAndFaults(app, services, journal, faults);
      registerClientControlRoutes(app, { services, resetData, journal, faults });
    },
  };
}
