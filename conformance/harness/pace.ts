/**
 * The target's pace, measured before any check runs, and the deadlines derived from it. A wait for
 * something the target does in reply (an event delivered, a stream replayed, a legacy webhook sent) is
 * stated for a target that answers at once, plus a number of the target's own round trips: the median
 * real latency of the discovery requests (health, key and liveness probes). A slower target gets longer
 * waits, a faster one no shorter than the stated floor, and no wait outlives the run's deadline
 * (`--timeout`), so a run ends in time whatever the target's pace.
 * @module
 */
import type { Exchange } from './exchange.js';

export interface Pace {
  /** Median real latency of the target's answers during discovery, ms. */
  readonly latencyMs: number;
  /** Real ms left before the run's deadline. */
  remainingMs(): number;
  /**
   * A real-time deadline: `floorMs` plus `roundTrips` of the target's latency, never beyond what is left
   * of the run.
   */
  wait(floorMs: number, roundTrips?: number): number;
  /** Whether `realMs` of waiting still fits in the run, leaving `reserveMs` for what follows. */
  allows(realMs: number, reserveMs?: number): boolean;
  /**
   * Real ms a check may spend following what the target schedules on its own clock (webhook retries, the
   * pause after 10 failed deliveries) when the suite cannot move that clock: `--real-time-budget`, never
   * beyond what the run's deadline leaves.
   */
  scheduleBudgetMs(): number;
}

/** `--real-time-budget` unless given: enough for nothing longer than half a minute of the target's schedule. */
export const defaultScheduleBudgetMs = 30_000;

/** Round trips a wait allows beyond its floor when the caller names none: an event's cause and its delivery. */
const defaultRoundTrips = 20;
/** What the run keeps for the checks after a long wait and for writing its reports. */
const defaultReserveMs = 60_000;

/** The median of `values`, 0 for none. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0
    ? 0
    : sorted.length % 2 === 1
      ? sorted[middle]!
      : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The pace of a target from the exchanges discovery made with it; `endsAt` is the run's deadline (epoch
 * ms), `scheduleBudgetMs` the `--real-time-budget`.
 */
export function measurePace(
  exchanges: readonly Exchange[],
  endsAt: number,
  scheduleBudgetMs = defaultScheduleBudgetMs,
): Pace {
  const latencyMs = median(
    exchanges.filter((exchange) => exchange.response !== undefined).map((exchange) => exchange.durationMs),
  );
  const remainingMs = (): number => Math.max(0, endsAt - Date.now());
  return {
    latencyMs,
    remainingMs,
    wait: (floorMs, roundTrips = defaultRoundTrips) =>
      Math.max(0, Math.min(remainingMs(), floorMs + roundTrips * latencyMs)),
    allows: (realMs, reserveMs = defaultReserveMs) => realMs + reserveMs <= remainingMs(),
    scheduleBudgetMs: () => Math.max(0, Math.min(scheduleBudgetMs, remainingMs() - defaultReserveMs)),
  };
}
