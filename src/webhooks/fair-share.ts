/**
 * How the dispatcher shares its delivery slots, so that no workspace can delay another's deliveries
 * whatever its receivers do. Attempts in flight are bounded four ways: in all, per workspace, per host
 * and per target; a target whose last attempt failed (no answer within the timeout, a refused connection,
 * a non-2xx) is down to one attempt at a time until one succeeds, and its other deliveries wait on the
 * retry schedule instead of in slots. Free slots go first to the workspace with the fewest in flight, so
 * a busy workspace takes what the quiet ones leave. A workspace's receivers that never answer hold at
 * most its share, for at most the attempt timeout each.
 * @module
 */
import type { ClaimCandidate, TargetState } from './outbox.js';

export interface FairShareLimits {
  /** Attempts in flight in all. */
  concurrency: number;
  /** Attempts in flight per workspace. */
  perWorkspace: number;
  /** Attempts in flight per host (host and port of the URL), whichever workspaces subscribed it. */
  perHost: number;
  /** Attempts in flight per target while it answers (one while it does not). */
  perTarget: number;
}

export interface FairShare {
  /** Attempts in flight, by target id (what the outbox's per-target limit reads). */
  readonly byTarget: ReadonlyMap<string, number>;
  readonly running: number;
  /** The candidates to take now, fewest in flight per workspace first, within every limit. */
  choose: (candidates: readonly ClaimCandidate[]) => ClaimCandidate[];
  /** Whether a delivery of `target` would wait for an attempt in flight to end. */
  isBusy: (target: TargetState) => boolean;
  take(target: TargetState): void;
  /** An attempt of `target` ended; an answer restores its full limit, none lowers it to one. */
  release(target: TargetState, answered: boolean): void;
}

/** The workspace a target's deliveries count against; one without is a share of its own. */
function shareOf(target: TargetState): string {
  return target.workspaceId ?? `target:${target.id}`;
}

function hostOf(target: TargetState): string {
  try {
    return new URL(target.url).host.toLowerCase();
  } catch {
    return target.url;
  }
}

class Counts {
  readonly counts = new Map<string, number>();
  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  add(key: string, by: number): void {
    const count = this.get(key) + by;
    if (count === 0) {
      this.counts.delete(key);
    } else {
      this.counts.set(key, count);
    }
  }
  copy(): Counts {
    const copy = new Counts();
    this.counts.forEach((count, key) => copy.counts.set(key, count));
    return copy;
  }
}

interface Load {
  running: number;
  byTarget: Counts;
  byWorkspace: Counts;
  byHost: Counts;
}

export function createFairShare(limits: FairShareLimits): FairShare {
  const load: Load = { running: 0, byTarget: new Counts(), byWorkspace: new Counts(), byHost: new Counts() };
  const failing = new Set<string>();

  const targetLimit = (target: TargetState): number => (failing.has(target.id) ? 1 : limits.perTarget);
  const fits = (at: Load, target: TargetState): boolean =>
    at.byTarget.get(target.id) < targetLimit(target) &&
    at.byWorkspace.get(shareOf(target)) < limits.perWorkspace &&
    at.byHost.get(hostOf(target)) < limits.perHost;
  const count = (at: Load, target: TargetState, by: number): void => {
    at.running += by;
    at.byTarget.add(target.id, by);
    at.byWorkspace.add(shareOf(target), by);
    at.byHost.add(hostOf(target), by);
  };

  return {
    byTarget: load.byTarget.counts,
    get running() {
      return load.running;
    },
    choose(candidates) {
      const scratch: Load = {
        running: load.running,
        byTarget: load.byTarget.copy(),
        byWorkspace: load.byWorkspace.copy(),
        byHost: load.byHost.copy(),
      };
      const left = [...candidates];
      const chosen: ClaimCandidate[] = [];
      while (scratch.running < limits.concurrency) {
        // Candidates are in due order; the first of the least loaded workspace goes next.
        let best = -1;
        left.forEach((candidate, index) => {
          const current = left[best];
          if (
            fits(scratch, candidate.target) &&
            (current === undefined ||
              scratch.byWorkspace.get(shareOf(candidate.target)) < scratch.byWorkspace.get(shareOf(current.target)))
          ) {
            best = index;
          }
        });
        if (best === -1) {
          break;
        }
        const [next] = left.splice(best, 1) as [ClaimCandidate];
        count(scratch, next.target, 1);
        chosen.push(next);
      }
      return chosen;
    },
    isBusy: (target) => !fits(load, target),
    take: (target) => count(load, target, 1),
    release(target, answered) {
      count(load, target, -1);
      if (answered) {
        failing.delete(target.id);
      } else {
        failing.add(target.id);
      }
    },
  };
}
