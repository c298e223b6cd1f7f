/**
 * Loading seed data into a started server: each workspace is provisioned with its keys, tier and starting
 * credits, then its sessions are started as `POST /v1/sessions` starts them (charged to the pool,
 * announced, their boards convened) and moved to their state as the client controls move them. A
 * workspace already in the store (a file kept from an earlier start) keeps its data: only its tier is set
 * again, so a restart with the same seed adds no second copy of its sessions.
 * @module
 */
import { BoardInputError } from '../../../board/errors.js';
import { ProblemError } from '../../core/problems.js';
import type { Services } from '../../ports/services.js';
import type { Tier } from '../../ports/records.js';
import { provisionKey, type ProvisionedKey } from '../provisioning.js';
import { endSession, memoProblem, type EndChange } from '../sessions/end-states.js';
import { startSession } from '../sessions/start.js';
import { seedRefused, type SeedData, type SeedSession } from './file.js';

export interface SeedDefaults {
  tier: Tier;
  credits?: number;
  onWorkspaceCreated?: Parameters<typeof provisionKey>[2]['onWorkspaceCreated'];
}

function endOf(seeded: SeedSession): EndChange | undefined {
  switch (seeded.state) {
    case 'complete':
      return seeded.memo === undefined ? undefined : { state: 'complete', memo: seeded.memo };
    case 'failed':
      return { state: 'failed', ...(seeded.error === undefined ? {} : { error: seeded.error }) };
    case 'cancelled':
      return { state: 'cancelled', reason: seeded.reason ?? null };
    default:
      return undefined;
  }
}

/** Why a seeded session could not be started or moved, named by the member of the seed it came from. */
function refusal(error: unknown, at: string, source: string): Error {
  if (error instanceof BoardInputError) {
    return seedRefused(source, `${at}/start${error.pointer} ${error.message}`);
  }
  if (error instanceof ProblemError) {
    return seedRefused(source, `${at} ${error.message}`);
  }
  return seedRefused(source, `${at} ${error instanceof Error ? error.message : String(error)}`);
}

/** Loads `seed`; returns the first key of each workspace with the workspace it opens. */
export function applySeed(
  services: Services,
  seed: SeedData,
  defaults: SeedDefaults,
  source: string,
): ProvisionedKey[] {
  const { store, clock, versions, validator } = services;
  return seed.workspaces.map((seeded, index) => {
    const [first = '', ...others] = seeded.api_keys;
    const credits = seeded.credits ?? defaults.credits;
    const provisioned = provisionKey(store, first, {
      tier: seeded.tier ?? defaults.tier,
      apiVersion: versions.current,
      now: clock.now(),
      ...(credits === undefined ? {} : { startingCredits: credits }),
      ...(defaults.onWorkspaceCreated === undefined ? {} : { onWorkspaceCreated: defaults.onWorkspaceCreated }),
    });
    for (const secret of others) {
      if (store.apiKeys.lookup(secret) === undefined) {
        store.apiKeys.add(provisioned.workspace.id, secret, clock.now());
      }
    }
    const apiKey = store.apiKeys.lookup(first);
    if (!provisioned.created || apiKey === undefined) {
      return provisioned;
    }
    (seeded.sessions ?? []).forEach((session, position) => {
      const at = `/workspaces/${index}/sessions/${position}`;
      const checked = validator.validate('#/components/schemas/StartSessionRequest', session.start);
      const [wrong] = checked.errors;
      if (!checked.valid && wrong !== undefined) {
        throw seedRefused(
          source,
          `${at}/start${wrong.instancePath} ${wrong.message ?? 'is invalid'} (StartSessionRequest)`,
        );
      }
      const wrongMemo = session.memo === undefined ? undefined : memoProblem(services, session.memo);
      if (wrongMemo !== undefined) {
        throw seedRefused(source, `${at}/memo${wrongMemo.pointer} ${wrongMemo.detail}`);
      }
      try {
        const { session: started } = startSession(services, provisioned.workspace, apiKey, session.start);
        const end = endOf(session);
        if (end !== undefined) {
          endSession(services, started.id, end);
        }
      } catch (error) {
        throw refusal(error, at, source);
      }
    });
    return provisioned;
  });
}
