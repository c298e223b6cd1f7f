/**
 * Reading the workspace's credits (`GET /credits`): the balance and the ledger's recent entries, newest
 * first, each signed (negative when drawn, positive when added).
 * @module
 */
import { type Exchange, jsonOf } from './exchange.js';
import type { HttpClient } from './http.js';
import { SetupFailure } from './observations.js';

export interface LedgerEntry {
  id: string;
  kind: string;
  credits: number;
  session_id: string | null;
  source?: string;
}

export interface CreditsReading {
  exchange: Exchange;
  balance: number;
  tier: unknown;
  usage: LedgerEntry[];
}

export async function readCredits(http: HttpClient): Promise<CreditsReading> {
  const exchange = await http.get('/credits');
  const body = (jsonOf(exchange) ?? {}) as { balance_credits?: unknown; tier?: unknown; recent_usage?: unknown };
  if (
    exchange.response?.status !== 200 ||
    typeof body.balance_credits !== 'number' ||
    !Array.isArray(body.recent_usage)
  ) {
    throw new SetupFailure(
      `GET /credits answered ${exchange.response?.status} without a balance and recent usage`,
      exchange,
    );
  }
  return { exchange, balance: body.balance_credits, tier: body.tier, usage: body.recent_usage as LedgerEntry[] };
}

/** The entries of `after` that `before` did not list; `undefined` when they may have pushed older ones out. */
export function newEntries(before: CreditsReading, after: CreditsReading): LedgerEntry[] | undefined {
  const known = new Set(before.usage.map((entry) => entry.id));
  const fresh = after.usage.filter((entry) => !known.has(entry.id));
  // A full page of new entries may hide more beyond it.
  return fresh.length === after.usage.length && before.usage.length > 0 ? undefined : fresh;
}

/** The credits read before and after some work, and the ledger entries that are new (see `newEntries`). */
export interface CreditsAround<T> {
  before: CreditsReading;
  after: CreditsReading;
  fresh: LedgerEntry[] | undefined;
  result: T;
}

/**
 * Reads the credits before and after `work`: what the work cost is judged by the ledger's new entries,
 * so work left over from other checks cannot mislead the balance's change.
 */
export async function readCreditsAround<T>(http: HttpClient, work: () => Promise<T>): Promise<CreditsAround<T>> {
  const before = await readCredits(http);
  const result = await work();
  const after = await readCredits(http);
  return { before, after, fresh: newEntries(before, after), result };
}

export function sumOf(entries: readonly LedgerEntry[]): number {
  return entries.reduce((total, entry) => total + (Number.isInteger(entry.credits) ? entry.credits : Number.NaN), 0);
}

export function entriesOf(reading: CreditsReading, sessionId: string): LedgerEntry[] {
  return reading.usage.filter((entry) => entry.session_id === sessionId);
}
