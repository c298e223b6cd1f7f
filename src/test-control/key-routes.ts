/**
 * The control plane's key routes (docs/conformance.md "Time control and fault switches"): what a
 * console does with keys and workspaces, which no operation of the contract offers (seed
 * "Authentication" 2, 4, 8). `POST /_test/keys` provisions a workspace of a chosen tier and balance
 * with a new key, optionally with a legacy per-key webhook URL; `POST /_test/keys/rotate` rotates a key
 * with the 24-hour grace. The suite uses them for the tier, credit, rotation and legacy-webhook checks.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import { invalid, objectBody, registerControlRoutes } from '../control-plane/routes.js';
import { isoAt } from '../server/core/clock.js';
import { connectDemoTools } from '../server/domain/integrations.js';
import { configureLegacyWebhooks } from '../server/domain/legacy-webhooks.js';
import { provisionKey } from '../server/domain/provisioning.js';
import type { Tier } from '../server/ports/records.js';
import type { Services } from '../server/ports/services.js';
import { generateSecret } from '../server/store/api-keys.js';
import { tiers } from '../server/store/workspaces.js';
import { controlPath } from './http-faults.js';

/** A new test-environment workspace with one key, of `tier` and `credits`, and a legacy URL if asked. */
function provision(services: Services, body: Record<string, unknown>): Record<string, unknown> {
  const { tier = 'ultra', credits = 10_000, legacy_webhook_url: legacyUrl, ...other } = body;
  const unknown = Object.keys(other)[0];
  if (unknown !== undefined) {
    throw invalid(`#/body/${unknown}`, 'is not a key setting; send tier, credits and/or legacy_webhook_url');
  }
  if (typeof tier !== 'string' || !tiers.includes(tier as Tier)) {
    throw invalid('#/body/tier', `must be one of ${tiers.join(', ')}`);
  }
  if (!Number.isSafeInteger(credits) || (credits as number) < 0) {
    throw invalid('#/body/credits', 'must be a whole number of credits from 0');
  }
  if (legacyUrl !== undefined && typeof legacyUrl !== 'string') {
    throw invalid('#/body/legacy_webhook_url', 'must be an absolute http(s) URL');
  }
  const { store, clock, document } = services;
  const now = clock.now();
  const { secret, workspace } = provisionKey(store, generateSecret('test'), {
    tier: tier as Tier,
    startingCredits: credits as number,
    apiVersion: services.versions.current,
    now,
    onWorkspaceCreated: (created) => connectDemoTools(document, store, created.id, now),
  });
  let legacySecret: string | undefined;
  if (legacyUrl !== undefined) {
    try {
      legacySecret = configureLegacyWebhooks(store, services.webhooks.outbox, [{ apiKey: secret, url: legacyUrl }])[0]
        ?.secret;
    } catch (error) {
      throw invalid('#/body/legacy_webhook_url', (error as Error).message);
    }
  }
  return {
    api_key: secret,
    tier: workspace.tier,
    balance_credits: credits,
    ...(legacySecret === undefined ? {} : { legacy_webhook_secret: legacySecret }),
  };
}

function rotate(
  services: Services,
  body: Record<string, unknown>,
  onRotated: (old: string, fresh: string) => void,
): Record<string, unknown> {
  const { api_key: apiKey } = body;
  if (typeof apiKey !== 'string') {
    throw invalid('#/body/api_key', 'must be the key to rotate');
  }
  try {
    const rotated = services.store.apiKeys.rotate(apiKey, services.clock.now());
    onRotated(apiKey, rotated.secret);
    return { api_key: rotated.secret, old_key_expires_at: isoAt(rotated.oldKeyExpiresAt) };
  } catch (error) {
    throw invalid('#/body/api_key', (error as Error).message);
  }
}

/** `onRotated` hears each key a rotation issues (the faults tell those keys apart). */
export function registerKeyRoutes(
  app: FastifyInstance,
  services: () => Services,
  onRotated: (old: string, fresh: string) => void,
): void {
  registerControlRoutes(app, {
    [`${controlPath}/keys`]: {
      POST: { status: 201, handle: (request) => provision(services(), objectBody(request, {})) },
    },
    [`${controlPath}/keys/rotate`]: {
      POST: { status: 201, handle: (request) => rotate(services(), objectBody(request, {}), onRotated) },
    },
  });
}
