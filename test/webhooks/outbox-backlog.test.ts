/**
 * The SQLite outbox under a backlog: the dispatcher asks for due work after every attempt, so the claim
 * must read the head of each target's queue through an index and never the whole backlog (generated
 * tests once left the server answering its health probe in seconds behind 90,000 pending deliveries).
 * The query plans are checked, not timings: speed is measured in bench/.
 */
import { afterEach, expect, test } from 'vitest';
import { prepareStatements, webhookTablesSql } from '../../src/webhooks/sqlite-statements.js';
import { openDatabase, type TestDatabase } from './fixtures/sqlite.js';

let db: TestDatabase | undefined;

afterEach(() => {
  db?.close();
  db = undefined;
});

function planOf(database: TestDatabase, statement: unknown, params: Record<string, unknown>): string[] {
  const { source } = statement as { source: string };
  return (database.prepare(`EXPLAIN QUERY PLAN ${source}`).all(params) as Array<{ detail: string }>).map(
    (row) => row.detail,
  );
}

test("claiming due work searches each target's queue by index, never the backlog of deliveries", () => {
  db = openDatabase();
  db.exec(webhookTablesSql);
  const plan = planOf(db, prepareStatements(db).due, { now: 0, leaseNow: 0, rank: 2, limit: 32 });
  expect(plan).toContainEqual(
    expect.stringMatching(
      /^SEARCH webhook_deliveries USING INDEX webhook_deliveries_by_target_due \(target_id=\? AND status=\? AND due_at<\?\)$/,
    ),
  );
  expect(plan.filter((step) => /^SCAN webhook_deliveries\b/.test(step))).toEqual([]);
});

test('the next lease to run out is read from an index, not from the pending deliveries', () => {
  db = openDatabase();
  db.exec(webhookTablesSql);
  const plan = planOf(db, prepareStatements(db).nextLeaseExpiry, {});
  expect(plan).toEqual([
    expect.stringMatching(
      /^SEARCH webhook_deliveries USING COVERING INDEX webhook_deliveries_by_lease \(status=\? AND lease_until>\?\)$/,
    ),
  ]);
});
