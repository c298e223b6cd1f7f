/**
 * How each precondition is decided, and the reason a skip gives when it is not met (a skip always says
 * why). A check's preconditions are decided in the order it lists them, up to the first one not met, so
 * the probe behind `receiver-reachable` runs only for checks that got that far.
 * @module
 */
import type { PreconditionName } from '../checks/types.js';
import type { Target } from './target.js';

export interface PreconditionState {
  target: Target;
  /** The opt-in categories were selected (`--only`) or the profile includes them. */
  optedIn: boolean;
  /** Why the target cannot deliver to the suite's receiver, if it cannot: probed once, on first need (receiver-reach.ts). */
  receiverUnreachable: () => Promise<string | undefined>;
}

/** The reason `name` is not met, or `undefined` when it is. */
export async function unmetReason(name: PreconditionName, { target, optedIn, receiverUnreachable }: PreconditionState): Promise<string | undefined> {
  switch (name) {
    case 'live':
      return target.live ? undefined : 'not applicable: the target is a mock that keeps no state (it answers sessions never created)';
    case 'second-key':
      return target.hasSecondKey ? undefined : 'needs --api-key-b (a key of another workspace)';
    case 'time-control':
      return target.clock.known ? undefined : 'target has no time control';
    case 'opt-in':
      return optedIn ? undefined : 'spends quota: runs only when selected (--only rate-limits) or with --profile full';
    case 'receiver-reachable':
      return receiverUnreachable();
  }
}
