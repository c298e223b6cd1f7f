/**
 * Keys and workspaces through the test-only control plane (docs/conformance.md "Time control and fault
 * switches"): what a console does and no operation of the contract offers (seed "Authentication" 2, 4, 8).
 * A target may lack these routes; the checks that need them then skip and say why.
 *
 * - `POST {path}/keys` `{"tier"?, "credits"?, "legacy_webhook_url"?}` → `{"api_key", "tier",
 *   "balance_credits", "legacy_webhook_secret"?}`: a new workspace with one key
 * - `POST {path}/keys/rotate` `{"api_key"}` → `{"api_key", "old_key_expires_at"}`: the key rotated
 * @module
 */
import type { CheckContext } from './check.js';
import type { HttpClient } from './http.js';

export interface KeySettings {
  tier?: string;
  credits?: number;
  legacy_webhook_url?: string;
}

export interface ProvisionedKey {
  apiKey: string;
  /** The workspace's client: the check's own, authenticated with the new key. */
  http: HttpClient;
  legacySecret: string | undefined;
}

/** Why keys cannot be made on this target, or `undefined` when they can. */
export function keyControlMissing(ctx: CheckContext): string | undefined {
  return ctx.target.control === undefined
    ? 'needs keys of other tiers and balances: the target offers no test control that provisions them'
    : undefined;
}

async function call(ctx: CheckContext, path: string, body: unknown): Promise<Record<string, unknown> | string> {
  const response = await fetch(`${ctx.target.control!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: ctx.signal,
  });
  const text = await response.text();
  if (!response.ok) {
    return `POST ${path} of the test control answered ${response.status}: ${text.slice(0, 200)}`;
  }
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * A key of a workspace on `tier` that the profile names (`--tier-key`); for Ultra, the key under test
 * serves (the API is available on Ultra and Enterprise only, and both allow a lineup of 12).
 */
function givenTierKey(ctx: CheckContext, tier: string): ProvisionedKey | undefined {
  const key = ctx.profile.tierKeys?.[tier];
  if (key !== undefined) {
    ctx.secrets.add(key);
    return { apiKey: key, http: ctx.http.as({ kind: 'bearer', key }), legacySecret: undefined };
  }
  return tier === 'ultra' ? { apiKey: '', http: ctx.http, legacySecret: undefined } : undefined;
}

/**
 * A new workspace and its key, or the reason there is none (a skip reason). A target without the key
 * routes can still serve a request for a tier alone with a key the profile names.
 */
export async function provisionKey(ctx: CheckContext, settings: KeySettings = {}): Promise<ProvisionedKey | string> {
  const missing = keyControlMissing(ctx);
  const lowCredit = ctx.profile.lowCreditKey;
  if (
    missing !== undefined &&
    lowCredit !== undefined &&
    settings.credits !== undefined &&
    Object.keys(settings).length === 1
  ) {
    ctx.secrets.add(lowCredit);
    return { apiKey: lowCredit, http: ctx.http.as({ kind: 'bearer', key: lowCredit }), legacySecret: undefined };
  }
  if (missing !== undefined) {
    const onlyTier = settings.tier !== undefined && Object.keys(settings).length === 1;
    const given = onlyTier ? givenTierKey(ctx, settings.tier!) : undefined;
    const onlyCredits = settings.credits !== undefined && Object.keys(settings).length === 1;
    return (
      given ??
      (onlyTier
        ? `${missing}, and no --tier-key names a ${settings.tier} key`
        : onlyCredits
          ? `${missing}, and no --low-credit-key names one`
          : missing)
    );
  }
  const answer = await call(ctx, '/keys', settings);
  if (typeof answer === 'string' || typeof answer['api_key'] !== 'string') {
    return typeof answer === 'string' ? answer : 'the test control made no key';
  }
  const apiKey = answer['api_key'];
  ctx.secrets.add(apiKey);
  const legacySecret =
    typeof answer['legacy_webhook_secret'] === 'string' ? answer['legacy_webhook_secret'] : undefined;
  if (legacySecret !== undefined) {
    ctx.secrets.add(legacySecret);
  }
  return { apiKey, http: ctx.http.as({ kind: 'bearer', key: apiKey }), legacySecret };
}

/**
 * A check body run on a workspace of its own whose balance (1 credit) no session's estimate fits in (seed
 * "Errors": 402 insufficient-credits), so no other check's spending moves it; without one, `requirement`
 * is skipped with the reason and the body does not run.
 */
export function onPoorWorkspace(
  requirement: string,
  body: (ctx: CheckContext, poor: ProvisionedKey) => Promise<void>,
): (ctx: CheckContext) => Promise<void> {
  return async (ctx) => {
    const poor = await provisionKey(ctx, { credits: 1 });
    if (typeof poor === 'string') {
      ctx.skip(requirement, poor);
      return;
    }
    await body(ctx, poor);
  };
}

/** Rotates `apiKey`: the new key, or the reason the target cannot (a skip reason). */
export async function rotateKey(
  ctx: CheckContext,
  apiKey: string,
): Promise<{ apiKey: string; http: HttpClient } | string> {
  const answer = await call(ctx, '/keys/rotate', { api_key: apiKey });
  if (typeof answer === 'string' || typeof answer['api_key'] !== 'string') {
    return typeof answer === 'string' ? answer : 'the test control rotated no key';
  }
  ctx.secrets.add(answer['api_key']);
  return { apiKey: answer['api_key'], http: ctx.http.as({ kind: 'bearer', key: answer['api_key'] }) };
}

/**
 * A client of a workspace of its own when the test control provides one (so other checks' requests and
 * ledger entries cannot mix with this check's), otherwise the run's own client.
 */
export async function ownWorkspaceOrShared(ctx: CheckContext): Promise<HttpClient> {
  const own = await provisionKey(ctx);
  return typeof own === 'string' ? ctx.http : own.http;
}
