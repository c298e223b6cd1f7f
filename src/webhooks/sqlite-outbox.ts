/**
 * The durable outbox in SQLite. The server owns the database file and hands over its connection; this
 * module owns the `webhook_` tables. Every change is one transaction, so a crash leaves each delivery
 * either settled or still pending with its lease, which runs out and makes it due again: at-least-once
 * delivery, with the same delivery id.
 * @module
 */
import type { WebhookEventName } from './events.js';
import { createAttemptId } from './ids.js';
import {
  selectClaims,
  settleAttempt,
  type AttemptOutcome,
  type AttemptRecord,
  type ClaimedDelivery,
  type ClaimOptions,
  type DeliveryRecord,
  type SettlePolicy,
  type TargetState,
  type WebhookOutbox,
} from './outbox.js';
import { parseRetrySchedule } from './retry.js';
import {
  addedColumns,
  prepareStatements,
  webhookTablesSql,
  type SqliteDatabase,
  type SqliteStatement,
} from './sqlite-statements.js';

export type { SqliteDatabase, SqliteStatement };

/** Creates the `webhook_` tables when they are missing. */
export function migrate(db: SqliteDatabase): void {
  db.exec(webhookTablesSql);
  for (const { table, column, definition } of addedColumns) {
    const columns = db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as Array<{ name: string }>;
    if (!columns.some(({ name }) => name === column)) {
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
    }
  }
}

interface TargetRow {
  id: string;
  kind: TargetState['kind'];
  url: string;
  secret: string;
  events: string;
  schedule: string;
  consecutive_failures: number;
  paused_at: number | null;
  workspace_id: string | null;
}

interface DeliveryRow {
  id: string;
  target_id: string;
  event: WebhookEventName;
  body: string;
  status: DeliveryRecord['status'];
  attempts_made: number;
  due_at: number;
  lease_until: number | null;
  lease_token: string | null;
  created_at: number;
  finished_at: number | null;
}

interface AttemptRow {
  id: string;
  delivery_id: string;
  target_id: string;
  event: WebhookEventName;
  attempt: number;
  status: AttemptRecord['status'];
  response_code: number | null;
  error: string | null;
  attempted_at: number;
  next_retry_at: number | null;
  duration_ms: number;
}

function toTarget(row: TargetRow): TargetState {
  return {
    id: row.id,
    kind: row.kind,
    url: row.url,
    secret: row.secret,
    events: JSON.parse(row.events) as WebhookEventName[],
    schedule: parseRetrySchedule(JSON.parse(row.schedule)),
    consecutiveFailures: row.consecutive_failures,
    pausedAt: row.paused_at,
    ...(row.workspace_id === null ? {} : { workspaceId: row.workspace_id }),
  };
}

function toDelivery(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    targetId: row.target_id,
    event: row.event,
    body: row.body,
    status: row.status,
    attemptsMade: row.attempts_made,
    dueAt: row.due_at,
    leaseUntil: row.lease_until,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

function toAttempt(row: AttemptRow): AttemptRecord {
  return {
    id: row.id,
    deliveryId: row.delivery_id,
    targetId: row.target_id,
    event: row.event,
    attempt: row.attempt,
    status: row.status,
    responseCode: row.response_code,
    error: row.error,
    attemptedAt: row.attempted_at,
    nextRetryAt: row.next_retry_at,
    durationMs: row.duration_ms,
  };
}

/** An outbox over `db`; runs `migrate` first. */
export function createSqliteOutbox(db: SqliteDatabase): WebhookOutbox {
  migrate(db);
  const sql = prepareStatements(db);

  const getTarget = (id: string): TargetState | undefined => {
    const row = sql.target.get(id) as TargetRow | undefined;
    return row && toTarget(row);
  };

  return {
    saveTarget: ({ id, kind, url, secret, events, schedule, workspaceId = null }) => {
      const settings = {
        id,
        kind,
        url,
        secret,
        workspaceId,
        events: JSON.stringify(events),
        schedule: JSON.stringify(schedule),
      };
      sql.saveTarget.run(settings);
    },
    removeTarget: db.transaction((id: string) => {
      sql.deleteAttemptsOf.run(id);
      sql.deleteDeliveriesOf.run(id);
      sql.deleteTarget.run(id);
    }),
    getTarget,
    subscribersOf: (event) => (sql.subscribers.all(event) as TargetRow[]).map(toTarget),
    enable: (id) => Number(sql.enable.run(id).changes) === 1,
    enqueue: (delivery) => Number(sql.enqueue.run(delivery).changes) === 1,
    claimDue: db.transaction((now: number, options: ClaimOptions): ClaimedDelivery[] => {
      const leaseNow = options.leaseNow ?? now;
      sql.failPausedDue.run({ now, leaseNow });
      // With `choose`, every due head is a candidate: a fair choice must see every workspace's.
      const limit = options.choose === undefined ? options.limit * options.perTargetLimit : -1;
      const rows = sql.due.all({ now, leaseNow, rank: options.perTargetLimit, limit }) as DeliveryRow[];
      const targets = new Map<string, TargetState>();
      const candidates = rows.map((row) => ({
        delivery: toDelivery(row),
        target: targets.get(row.target_id) ?? (getTarget(row.target_id) as TargetState),
      }));
      candidates.forEach(({ target }) => targets.set(target.id, target));
      const claims: ClaimedDelivery[] = [];
      for (const { delivery, target } of selectClaims(candidates, options)) {
        const attemptId = createAttemptId();
        const leaseUntil = leaseNow + options.leaseMs;
        sql.lease.run({ id: delivery.id, leaseUntil, attemptId });
        claims.push({ delivery: { ...delivery, leaseUntil }, target, attempt: delivery.attemptsMade + 1, attemptId });
      }
      return claims;
    }),
    recordAttempt: db.transaction((outcome: AttemptOutcome, policy: SettlePolicy) => {
      const row = sql.delivery.get(outcome.deliveryId) as DeliveryRow | undefined;
      const target = row && getTarget(row.target_id);
      if (row?.status !== 'pending' || row.lease_token !== outcome.attemptId || target === undefined) {
        return undefined;
      }
      const settlement = settleAttempt(target, outcome, policy);
      sql.insertAttempt.run({
        ...outcome,
        targetId: target.id,
        event: row.event,
        status: settlement.status,
        nextRetryAt: settlement.nextRetryAt,
      });
      sql.settleDelivery.run({
        id: row.id,
        attempt: outcome.attempt,
        status: settlement.delivery,
        dueAt: settlement.nextRetryAt ?? row.due_at,
        finishedAt: settlement.delivery === 'pending' ? null : outcome.finishedAt,
      });
      sql.setBreaker.run({
        id: target.id,
        failures: settlement.consecutiveFailures,
        pausedAt: settlement.pauses ? outcome.finishedAt : target.pausedAt,
      });
      if (settlement.pauses) {
        sql.failPendingOf.run({ targetId: target.id, at: outcome.finishedAt });
      }
      sql.pruneAttempts.run({ targetId: target.id, keep: policy.keepAttempts });
      sql.pruneDeliveries.run({ targetId: target.id });
      return settlement;
    }),
    nextDueAt: (isBusy = () => false) => {
      const heads = (sql.targetsWithDue.all() as Array<TargetRow & { next: number | null }>).filter(
        (row) => row.next !== null && !isBusy(toTarget(row)),
      );
      return heads.length === 0 ? undefined : Math.min(...heads.map((row) => row.next as number));
    },
    nextLeaseExpiry: () => (sql.nextLeaseExpiry.get() as { next: number | null }).next ?? undefined,
    releaseLeases: () => Number(sql.releaseLeases.run().changes),
    getDelivery: (id) => {
      const row = sql.delivery.get(id) as DeliveryRow | undefined;
      return row && toDelivery(row);
    },
    listAttempts: (targetId, limit = 100) => (sql.attempts.all({ targetId, limit }) as AttemptRow[]).map(toAttempt),
  };
}
