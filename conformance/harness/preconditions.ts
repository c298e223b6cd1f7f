/**
 * How each precondition is decided, the reason a skip gives when it is not met, and the remedy: what
 * would let the next run meet it (a flag of the suite, or a capability of the target with the reference
 * server's `serve` flag that grants it). A skip always says why and how to un-skip it. A check's
 * preconditions are decided in the order it lists them, up to the first one not met, so the probe behind
 * `receiver-reachable` runs only for checks that got that far.
 * @module
 */
import type { PreconditionName } from './check.js';
import type { Target } from './target.js';

export interface PreconditionState {
  target: Target;
  /** The opt-in categories were selected (`--only`) or the profile includes them. */
  optedIn: boolean;
  /** Why the target cannot deliver to the suite's receiver, if it cannot: probed once, on first need (receiver-reach.ts). */
  receiverUnreachable: () => Promise<string | undefined>;
}

export interface Unmet {
  reason: string;
  remedy: string;
}

/** What would meet each precondition on the next run. */
export const preconditionRemedies: Readonly<Record<PreconditionName, string>> = {
  live: 'point --target at a live implementation that keeps state (a mock such as `boardkit mock` cannot be judged on state)',
  'second-key':
    'pass --api-key-b with a key of another workspace (reference server: start `boardkit serve` with two --api-key flags)',
  'time-control':
    'run against a target that offers the test clock protocol (docs/conformance.md "The test clock protocol"; reference server: `boardkit serve --test-control`)',
  'opt-in': 'select the category with --only rate-limits, or run with --profile full',
  'receiver-reachable':
    "let the target deliver to the suite's receiver: give --receiver-host with an address of this machine the target can reach (reference server: `boardkit serve --allow-loopback-webhooks`)",
};

async function reasonOf(
  name: PreconditionName,
  { target, optedIn, receiverUnreachable }: PreconditionState,
): Promise<string | undefined> {
  switch (name) {
    case 'live':
      return target.live
        ? undefined
        : 'not applicable: the target is a mock that keeps no state (it answers sessions never created)';
    case 'second-key':
      return target.hasSecondKey ? undefined : 'needs a key of another workspace';
    case 'time-control':
      return target.clock.known ? undefined : 'target has no time control';
    case 'opt-in':
      return optedIn ? undefined : 'spends quota: runs only when selected or with --profile full';
    case 'receiver-reachable':
      return receiverUnreachable();
  }
}

/** Why `name` is not met and how to meet it, or `undefined` when it is met. */
export async function unmet(name: PreconditionName, state: PreconditionState): Promise<Unmet | undefined> {
  const reason = await reasonOf(name, state);
  return reason === undefined ? undefined : { reason, remedy: preconditionRemedies[name] };
}
