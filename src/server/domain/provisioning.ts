/**
 * Provisioning workspaces for `boardkit serve --api-key`: each key gets its own workspace with a
 * starting balance. A key that is already in the store keeps its workspace (restarting with the same
 * flags changes nothing but the tier).
 * @module
 */
import type { Tier, Workspace } from '../ports/records.js';
import type { Store } from '../ports/store.js';
import { generateSecret, keyFormHint, parseKey } from '../store/api-keys.js';
import { internalError } from '../core/internal-errors.js';

/** The balance a provisioned workspace starts with unless `boardkit serve --credits` says otherwise (designed). */
export const startingCredits = 10_000;

export interface ProvisionedKey {
  secret: string;
  workspace: Workspace;
  /** `true` when this run created the workspace. */
  created: boolean;
}

export interface ProvisionOptions {
  tier: Tier;
  apiVersion: string;
  now: number;
  /** The balance of each new workspace (default 10,000); a workspace already in the store keeps its own. */
  startingCredits?: number;
  /** Called for each new workspace, e.g. to connect its demo integrations. */
  onWorkspaceCreated?: (workspace: Workspace) => void;
}

export function provisionKey(store: Store, secret: string, options: ProvisionOptions): ProvisionedKey {
  if (parseKey(secret) === undefined) {
    throw internalError('BOARDKIT_KEY_MALFORMED', secret, keyFormHint);
  }
  return store.db.transaction(() => {
    const existing = store.apiKeys.lookup(secret);
    const known = existing === undefined ? undefined : store.workspaces.get(existing.workspaceId);
    if (known !== undefined) {
      store.workspaces.setTier(known.id, options.tier);
      return { secret, workspace: { ...known, tier: options.tier }, created: false };
    }
    const workspace = store.workspaces.create(options.tier, options.apiVersion, options.now);
    store.apiKeys.add(workspace.id, secret, options.now);
    const credits = options.startingCredits ?? startingCredits;
    if (!Number.isSafeInteger(credits) || credits < 0) {
      throw internalError('BOARDKIT_CONFIG_STARTING_CREDITS', credits);
    }
    if (credits > 0) {
      store.credits.record({
        workspaceId: workspace.id,
        kind: 'topup',
        credits,
        sessionId: null,
        description: 'Starting balance of a provisioned workspace',
        at: options.now,
      });
    }
    options.onWorkspaceCreated?.(workspace);
    return { secret, workspace, created: true };
  })();
}

/**
 * The keys to provision: the ones given, or on a fresh store given none, one new test key (printed by
 * `boardkit serve` so that the server can be used at once).
 */
export function provisionKeys(store: Store, secrets: readonly string[], options: ProvisionOptions): ProvisionedKey[] {
  if (secrets.length === 0) {
    return store.workspaces.isEmpty() ? [provisionKey(store, generateSecret('test'), options)] : [];
  }
  return secrets.map((secret) => provisionKey(store, secret, options));
}
