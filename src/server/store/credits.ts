/**
 * The credit ledger of each workspace: signed entries (negative for use), whose sum is the balance
 * (seed "What the service does" 8: one pool shared by web, MCP and API use). A start reserves its
 * estimate with a `charge`; a cancellation returns the unspent part with a `refund`.
 * @module
 */
import type { CreditKind, CreditUsage, LedgerEntry } from '../ports/records.js';
import { isoAt } from '../core/clock.js';
import { newId } from '../core/ids.js';
import type { CreditStore, SqliteDatabase } from '../ports/store.js';

interface EntryRow {
  id: string;
  at: number;
  source: CreditUsage['source'];
  kind: CreditKind;
  credits: number;
  session_id: string | null;
  description: string;
}

export function creditStore(db: SqliteDatabase): CreditStore {
  const insert = db.prepare(
    `INSERT INTO credit_entries (id, workspace_id, at, source, kind, credits, session_id, description)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const sum = db.prepare<[string], { balance: number | null }>(
    'SELECT SUM(credits) AS balance FROM credit_entries WHERE workspace_id = ?',
  );
  const recent = db.prepare<[string, number], EntryRow>(
    'SELECT * FROM credit_entries WHERE workspace_id = ? ORDER BY seq DESC LIMIT ?',
  );
  const used = db.prepare<[string, number, number], { used: number | null }>(
    `SELECT -SUM(credits) AS used FROM credit_entries
     WHERE workspace_id = ? AND at >= ? AND at < ? AND kind != 'topup'`,
  );

  function balance(workspaceId: string): number {
    return sum.get(workspaceId)?.balance ?? 0;
  }

  function record(entry: LedgerEntry): void {
    insert.run(
      newId('cru'),
      entry.workspaceId,
      entry.at,
      entry.source ?? 'api',
      entry.kind,
      entry.credits,
      entry.sessionId,
      entry.description,
    );
  }

  const spend = db.transaction((entry: Omit<LedgerEntry, 'credits'> & { amount: number }) => {
    const before = balance(entry.workspaceId);
    if (entry.amount > before) {
      return { covered: false as const, balance: before };
    }
    if (entry.amount > 0) {
      record({ ...entry, credits: -entry.amount });
    }
    return { covered: true as const, balance: before };
  });

  return {
    balance,
    record,
    /**
     * Records a use of `amount` credits if the balance covers it, in one transaction, and returns the
     * balance it was checked against; `covered: false` records nothing.
     */
    spend: (entry: Omit<LedgerEntry, 'credits'> & { amount: number }) => spend(entry),
    recent(workspaceId: string, limit: number): CreditUsage[] {
      return recent.all(workspaceId, limit).map((row) => ({
        id: row.id,
        at: isoAt(row.at),
        source: row.source,
        kind: row.kind,
        credits: row.credits,
        session_id: row.session_id,
        description: row.description,
      }));
    },
    /** Credits used (net of refunds) between two instants. */
    usedBetween(workspaceId: string, start: number, end: number): number {
      return Math.max(0, used.get(workspaceId, start, end)?.used ?? 0);
    },
  };
}
