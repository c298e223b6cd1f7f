/**
 * Spending credits from the workspace's pool (seed "What the service does" 8, "Errors": a cost the
 * balance does not cover is `402 insufficient-credits` with the estimate, the balance and where to top
 * up). Checking and recording happen in one transaction, so two requests cannot both spend the last
 * credits.
 * @module
 */
import { ProblemError } from '../../core/problems.js';
import type { CreditKind, CreditUsage } from '../../ports/records.js';
import type { Services } from '../../ports/services.js';

/** Where credits are bought (the contract's `topup_url` examples). */
export const topupUrl = 'https://console.decision-board.example/billing/credits';

export function insufficientCredits(estimate: number, balance: number, what: string): ProblemError {
  return new ProblemError(402, `${what} needs ${estimate} credits; the balance is ${balance}.`, {
    session_estimate_credits: estimate,
    balance_credits: balance,
    topup_url: topupUrl,
  });
}

export interface Spend {
  workspaceId: string;
  amount: number;
  kind: CreditKind;
  sessionId: string | null;
  description: string;
  /** What the credits are for, in the problem's detail ("This session"). */
  what: string;
  /** The channel the use came from; `api` unless said otherwise. */
  source?: CreditUsage['source'];
}

/** Records the use, or raises `402` when the balance does not cover `amount`; returns the balance before. */
export function spend(services: Services, request: Spend): number {
  const result = services.store.credits.spend({
    workspaceId: request.workspaceId,
    amount: request.amount,
    kind: request.kind,
    sessionId: request.sessionId,
    description: request.description,
    at: services.clock.now(),
    ...(request.source === undefined ? {} : { source: request.source }),
  });
  if (!result.covered) {
    throw insufficientCredits(request.amount, result.balance, request.what);
  }
  return result.balance;
}
