/**
 * Tiers (seed "What the service does" 7, "Authentication" 10, "Limits"): keys of lower tiers refused with
 * `403 tier-required`, the Synth cap of each tier, and the tier `GET /credits` names. The keys of other
 * tiers come from the test control; without it those checks skip.
 * @module
 */
import { readCredits } from '../harness/credits.js';
import { jsonOf } from '../harness/exchange.js';
import { provisionKey } from '../harness/key-control.js';
import { discardStarted, marker, startBodyA } from '../harness/sessions.js';
import { expectProblem, statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

/** Tiers are judged on workspaces the target keeps: the checks need a target that keeps state. */
const check = checksOf('tiers', { preconditions: ['live'] });

/** The tiers below Ultra, where the API is not available. */
const belowUltra = ['free', 'pro', 'max'];

/** Synths per session by tier (the service's pricing page). */
const synthCaps: Readonly<Record<string, number>> = { free: 3, pro: 5, max: 8, ultra: 12 };

/** A lineup of `size` distinct Synths of the library (the published slugs when the library is not known). */
function lineup(synths: readonly string[], size: number): string[] {
  const library =
    synths.length >= size ? synths : Array.from({ length: size }, (_, index) => synths[index] ?? `synth_${index + 1}`);
  return library.slice(0, size);
}

/**
 * The tiers below Ultra whose keys a check can get: `provisioned` when the test control makes keys,
 * otherwise those a --tier-key names; `undefined` after skipping `requirement` when there are none.
 */
function tiersWithKeys(
  ctx: CheckContext,
  requirement: string,
  provisioned: readonly string[],
): readonly string[] | undefined {
  const tiers =
    ctx.target.control !== undefined
      ? provisioned
      : belowUltra.filter((tier) => ctx.profile.tierKeys?.[tier] !== undefined);
  if (tiers.length === 0) {
    ctx.skip(
      requirement,
      'needs a key of a tier below Ultra: the target offers no test control that provisions one, and no --tier-key names one',
    );
    return undefined;
  }
  return tiers;
}

export const belowUltraCheck = check('below-ultra', ['TIER-001'], {
  title: 'Keys of tiers below Ultra are 403 tier-required',
  async run(ctx) {
    const tiers = tiersWithKeys(ctx, 'TIER-001', ['pro', 'max']);
    if (tiers === undefined) {
      return;
    }
    for (const tier of tiers) {
      const key = await provisionKey(ctx, { tier });
      if (typeof key === 'string') {
        ctx.skip('TIER-001', key);
        return;
      }
      expectProblem(
        ctx,
        'TIER-001',
        await key.http.get('/v1/sessions', { query: { limit: 1 } }),
        403,
        'tier-required',
        `GET /v1/sessions with a ${tier} key`,
      );
      const started = await key.http.post('/v1/sessions', startBodyA(ctx.target.synths, marker(`${tier} tier`), 1));
      expectProblem(ctx, 'TIER-001', started, 403, 'tier-required', `a start with a ${tier} key`);
      await discardStarted(key.http, started);
    }
  },
});

export const synthCapsCheck = check('synth-caps', ['TIER-002'], {
  title: 'Lineups above the Synth cap of the tier are 403 tier-required',
  async run(ctx) {
    const below = tiersWithKeys(ctx, 'TIER-002', belowUltra);
    if (below === undefined) {
      return;
    }
    for (const tier of [...below, 'ultra']) {
      const key = await provisionKey(ctx, { tier });
      if (typeof key === 'string') {
        ctx.skip('TIER-002', key);
        return;
      }
      const cap = synthCaps[tier]!;
      if (tier !== 'ultra') {
        const above = await key.http.post('/v1/sessions', {
          ...startBodyA(ctx.target.synths, marker(`${tier} cap`), 1),
          synths: lineup(ctx.target.synths, cap + 1),
        });
        expectProblem(ctx, 'TIER-002', above, 403, 'tier-required', `a lineup of ${cap + 1} with a ${tier} key`);
        await discardStarted(key.http, above);
        continue;
      }
      const atCap = await key.http.post('/v1/sessions', {
        ...startBodyA(ctx.target.synths, marker('ultra cap'), 1),
        synths: lineup(ctx.target.synths, cap),
      });
      ctx.expect(
        'TIER-002',
        statusOf(atCap) === 202,
        {
          kind: 'status',
          message: `a lineup of ${cap} with an ultra key answered ${statusOf(atCap)}`,
          expected: 202,
          got: jsonOf(atCap) ?? statusOf(atCap),
          evidence: atCap,
        },
        `a lineup of ${cap} with an ultra key was accepted`,
      );
      await discardStarted(key.http, atCap);
    }
  },
});

export const creditsTier = check('credits-tier', ['TIER-003'], {
  title: "GET /credits names the workspace's tier",
  async run(ctx) {
    const credits = await readCredits(ctx.http);
    ctx.expect(
      'TIER-003',
      credits.tier === 'ultra' || credits.tier === 'enterprise',
      {
        kind: 'state',
        message: `the API serves a key whose workspace GET /credits says is on ${String(credits.tier)}`,
        expected: ['ultra', 'enterprise'],
        got: credits.tier ?? null,
        evidence: credits.exchange,
      },
      `the workspace is on ${String(credits.tier)}`,
    );
    const key = await provisionKey(ctx, { tier: 'enterprise' });
    if (typeof key === 'string') {
      return;
    }
    const named = await readCredits(key.http);
    ctx.expect(
      'TIER-003',
      named.tier === 'enterprise',
      {
        kind: 'state',
        message: `an enterprise workspace's GET /credits says ${String(named.tier)}`,
        expected: 'enterprise',
        got: named.tier ?? null,
        evidence: named.exchange,
      },
      'an enterprise workspace is named enterprise',
    );
  },
});

export const tierChecks = [belowUltraCheck, synthCapsCheck, creditsTier];
