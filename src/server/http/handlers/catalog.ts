/**
 * The workspace's catalogues (seed "Endpoints": `/api/synths`, `/api/modes`, `/api/integrations`,
 * `/api/credits`): the Synth library and the modes of the board simulator, the connected tools, and the
 * credit balance with its recent ledger entries.
 * @module
 */
import { boardCatalog } from '../../../board/catalog.js';
import { isoAt } from '../../core/clock.js';
import type { Handler } from '../../ports/handlers.js';
import { defaultPageLimit, offsetPage } from '../../core/pagination.js';
import { topupUrl } from '../../domain/sessions/credits.js';
import { recordPage } from './listing.js';

export const listSynths: Handler<'listSynths'> = ({ query }, { services }) => ({
  status: 200,
  body: offsetPage(services.cursors, 'synths', boardCatalog().synths, query.limit ?? defaultPageLimit, query.cursor),
});

export const listModes: Handler<'listModes'> = ({ query }, { services }) => ({
  status: 200,
  body: offsetPage(services.cursors, 'modes', boardCatalog().modes, query.limit ?? defaultPageLimit, query.cursor),
});

export const listIntegrations: Handler<'listIntegrations'> = ({ query }, { services, workspace }) => ({
  status: 200,
  body: recordPage(
    services,
    `integrations:${workspace.id}`,
    services.store.integrations,
    workspace.id,
    query,
    undefined,
    'oldest',
  ),
});

/** The calendar month holding `now`, in UTC: the billing period. */
function billingPeriod(now: number): { start: number; end: number } {
  const date = new Date(now);
  return {
    start: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1),
    end: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
  };
}

export const getCredits: Handler<'getCredits'> = (_request, { services, workspace }) => {
  const { credits } = services.store;
  const period = billingPeriod(services.clock.now());
  return {
    status: 200,
    body: {
      balance_credits: Math.max(0, credits.balance(workspace.id)),
      tier: workspace.tier,
      pool: { shared_by: ['web', 'mcp', 'api'], per_call_surcharge_credits: 0 },
      recent_usage: credits.recent(workspace.id, 20),
      period: {
        start: isoAt(period.start),
        end: isoAt(period.end),
        credits_used: credits.usedBetween(workspace.id, period.start, period.end),
      },
      topup_url: topupUrl,
    },
  };
};
