/**
 * The SQL of the SQLite outbox: the `webhook_` tables and the statements over them. Times are milliseconds
 * since the epoch: due and attempt times on the dispatcher's clock, `lease_until` on its lease clock. JSON
 * columns hold the event filter and the retry schedule. No foreign keys: whether they are enforced is a
 * setting of the connection, which the server owns, so removing a target deletes the dependent rows
 * explicitly.
 * @module
 */

/** The part of a better-sqlite3 `Database` this module uses. */
export interface SqliteDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): SqliteStatement;
  transaction<Args extends unknown[], Result>(fn: (...args: Args) => Result): (...args: Args) => Result;
}

export interface SqliteStatement {
  run(...params: unknown[]): { changes: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export const webhookTablesSql = `
CREATE TABLE IF NOT EXISTS webhook_targets (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('subscription', 'legacy')),
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  events TEXT NOT NULL,
  schedule TEXT NOT NULL,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  paused_at INTEGER,
  workspace_id TEXT
) STRICT;

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id TEXT PRIMARY KEY,
  target_id TEXT NOT NULL,
  event TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts_made INTEGER NOT NULL DEFAULT 0,
  due_at INTEGER NOT NULL,
  lease_until INTEGER,
  lease_token TEXT,
  created_at INTEGER NOT NULL,
  finished_at INTEGER
) STRICT;

CREATE INDEX IF NOT EXISTS webhook_deliveries_by_due ON webhook_deliveries (status, due_at);
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_target ON webhook_deliveries (target_id, status);
-- The head of each target's queue and the next lease to run out, found without reading the backlog: the
-- dispatcher asks after every attempt, so a scan of all pending deliveries would block the event loop in
-- proportion to the backlog.
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_target_due ON webhook_deliveries (target_id, status, due_at);
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_lease ON webhook_deliveries (status, lease_until);

CREATE TABLE IF NOT EXISTS webhook_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  delivery_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  event TEXT NOT NULL,
  attempt INTEGER NOT NULL CHECK (attempt >= 1),
  status TEXT NOT NULL CHECK (status IN ('succeeded', 'failed', 'retry_scheduled', 'exhausted')),
  response_code INTEGER,
  error TEXT,
  attempted_at INTEGER NOT NULL,
  next_retry_at INTEGER,
  duration_ms INTEGER NOT NULL
) STRICT;

CREATE INDEX IF NOT EXISTS webhook_attempts_by_target ON webhook_attempts (target_id, seq);
CREATE INDEX IF NOT EXISTS webhook_attempts_by_delivery ON webhook_attempts (delivery_id);
`;

/** Columns added after the first release, each added to a database that lacks it. */
export const addedColumns: ReadonlyArray<{ table: string; column: string; definition: string }> = [
  { table: 'webhook_targets', column: 'workspace_id', definition: 'TEXT' },
];

/** Every statement of the outbox, prepared once per connection. */
export function prepareStatements(db: SqliteDatabase) {
  const prepare = (text: string) => db.prepare(text);
  return {
    target: prepare('SELECT * FROM webhook_targets WHERE id = ?'),
    saveTarget: prepare(`
      INSERT INTO webhook_targets (id, kind, url, secret, events, schedule, workspace_id)
      VALUES (@id, @kind, @url, @secret, @events, @schedule, @workspaceId)
      ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, url = excluded.url, secret = excluded.secret,
        events = excluded.events, schedule = excluded.schedule,
        workspace_id = COALESCE(excluded.workspace_id, webhook_targets.workspace_id)`),
    deleteTarget: prepare('DELETE FROM webhook_targets WHERE id = ?'),
    deleteDeliveriesOf: prepare('DELETE FROM webhook_deliveries WHERE target_id = ?'),
    deleteAttemptsOf: prepare('DELETE FROM webhook_attempts WHERE target_id = ?'),
    subscribers: prepare(`
      SELECT * FROM webhook_targets
      WHERE kind = 'subscription' AND paused_at IS NULL
        AND EXISTS (SELECT 1 FROM json_each(events) WHERE value = ?)
      ORDER BY rowid`),
    enable: prepare('UPDATE webhook_targets SET consecutive_failures = 0, paused_at = NULL WHERE id = ?'),
    enqueue: prepare(`
      INSERT INTO webhook_deliveries (id, target_id, event, body, status, due_at, created_at)
      SELECT @id, @targetId, @event, @body, 'pending', @createdAt, @createdAt
      FROM webhook_targets WHERE id = @targetId AND paused_at IS NULL`),
    failPausedDue: prepare(`
      UPDATE webhook_deliveries SET status = 'failed', finished_at = @now, lease_until = NULL, lease_token = NULL
      WHERE status = 'pending' AND due_at <= @now AND (lease_until IS NULL OR lease_until <= @leaseNow)
        AND target_id IN (SELECT id FROM webhook_targets WHERE paused_at IS NOT NULL)`),
    // At most `rank` due deliveries per target, so one target's backlog cannot fill the candidate list;
    // read from the head of each target's queue (index `webhook_deliveries_by_target_due`), so the cost
    // grows with the number of targets, not with the backlog.
    due: prepare(`
      SELECT d.*, d.rowid AS position FROM webhook_targets AS t
      JOIN webhook_deliveries AS d ON d.rowid IN (
        SELECT rowid FROM webhook_deliveries
        WHERE target_id = t.id AND status = 'pending' AND due_at <= @now AND (lease_until IS NULL OR lease_until <= @leaseNow)
        ORDER BY due_at, rowid LIMIT @rank)
      ORDER BY d.due_at, position LIMIT @limit`),
    targetsWithDue: prepare(`
      SELECT t.*, (SELECT MIN(due_at) FROM webhook_deliveries
        WHERE target_id = t.id AND status = 'pending' AND lease_until IS NULL) AS next
      FROM webhook_targets AS t`),
    lease: prepare('UPDATE webhook_deliveries SET lease_until = @leaseUntil, lease_token = @attemptId WHERE id = @id'),
    delivery: prepare('SELECT * FROM webhook_deliveries WHERE id = ?'),
    insertAttempt: prepare(`
      INSERT INTO webhook_attempts (id, delivery_id, target_id, event, attempt, status, response_code, error,
        attempted_at, next_retry_at, duration_ms)
      VALUES (@attemptId, @deliveryId, @targetId, @event, @attempt, @status, @responseCode, @error,
        @attemptedAt, @nextRetryAt, @durationMs)`),
    settleDelivery: prepare(`
      UPDATE webhook_deliveries SET attempts_made = @attempt, status = @status, due_at = @dueAt,
        finished_at = @finishedAt, lease_until = NULL, lease_token = NULL
      WHERE id = @id`),
    setBreaker: prepare(
      'UPDATE webhook_targets SET consecutive_failures = @failures, paused_at = @pausedAt WHERE id = @id',
    ),
    failPendingOf: prepare(`
      UPDATE webhook_deliveries SET status = 'failed', finished_at = @at
      WHERE target_id = @targetId AND status = 'pending' AND lease_token IS NULL`),
    pruneAttempts: prepare(`
      DELETE FROM webhook_attempts WHERE target_id = @targetId AND seq NOT IN (
        SELECT seq FROM webhook_attempts WHERE target_id = @targetId ORDER BY seq DESC LIMIT @keep)`),
    pruneDeliveries: prepare(`
      DELETE FROM webhook_deliveries WHERE target_id = @targetId AND status <> 'pending'
        AND NOT EXISTS (SELECT 1 FROM webhook_attempts WHERE delivery_id = webhook_deliveries.id)`),
    nextLeaseExpiry: prepare(
      "SELECT MIN(lease_until) AS next FROM webhook_deliveries WHERE status = 'pending' AND lease_until IS NOT NULL",
    ),
    releaseLeases: prepare(
      "UPDATE webhook_deliveries SET lease_until = NULL, lease_token = NULL WHERE status = 'pending' AND lease_until IS NOT NULL",
    ),
    attempts: prepare('SELECT * FROM webhook_attempts WHERE target_id = @targetId ORDER BY seq DESC LIMIT @limit'),
  };
}
