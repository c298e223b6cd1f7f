/**
 * The check model (after Schemathesis' checks): a small named function with stated preconditions that
 * tests one or more requirements and records typed outcomes with evidence. The harness runs checks of
 * this shape; conformance/checks declares them (`checksOf` in checks/define.ts).
 * @module
 */
import type { Category } from '../requirements/types.js';
import type { TargetClock } from './clock.js';
import type { Contract } from './contract.js';
import type { Exchange } from './exchange.js';
import type { HttpClient } from './http.js';
import type { Failure } from './observations.js';
import type { Profile } from './profiles.js';
import type { WebhookReceiver } from './receiver.js';
import type { Pace } from './pace.js';
import type { Target } from './target.js';

/**
 * What a check needs of the target before it can run (harness/preconditions.ts says how each is decided
 * and the reason given when it is not met).
 * - `live`: a real implementation that keeps state (not a mock);
 * - `second-key`: a key of another workspace (`--api-key-b`);
 * - `time-control`: the test-only clock capability;
 * - `opt-in`: spends quota, so runs only when selected;
 * - `receiver-reachable`: the target's webhook attempts reach the suite's receiver on 127.0.0.1.
 */
export type PreconditionName = 'live' | 'second-key' | 'time-control' | 'opt-in' | 'receiver-reachable';

/**
 * `main` checks run first, several at once; `exclusive` ones alone, afterwards (they change the target's
 * clock or exhaust its quota); `sweep` checks last, over every exchange of the run.
 */
export type Phase = 'main' | 'exclusive' | 'sweep';

export interface Check {
  name: string;
  category: Category;
  title: string;
  /** The IDs of the requirements it judges: the one place a check and a requirement are linked. */
  requirements: readonly string[];
  preconditions: readonly PreconditionName[];
  phase: Phase;
  run(ctx: CheckContext): Promise<void>;
}

export interface CheckContext {
  readonly name: string;
  readonly contract: Contract;
  readonly target: Target;
  readonly profile: Profile;
  /** Authenticated with `--api-key`. */
  readonly http: HttpClient;
  /** Authenticated with `--api-key-b`, when given. */
  readonly httpB: HttpClient | undefined;
  /** No credentials. */
  readonly anonymous: HttpClient;
  readonly clock: TargetClock;
  readonly signal: AbortSignal;
  /** Real-time limits: how long a session may take to finish, how long one request may take. */
  readonly timeouts: { sessionMs: number; requestMs: number };
  /** The target's pace and the run's deadline: what waits on the target's replies derive their deadline from. */
  readonly pace: Pace;
  /**
   * Lets the check run `realMs` longer than its own time limit, for a real-time wait the run's deadline
   * allows (a retry schedule followed on a target whose clock cannot be moved).
   */
  extendLimit(realMs: number): void;
  /** Every exchange recorded so far (what the sweeps read). */
  exchanges(): readonly Exchange[];
  /** The webhook receiver the suite hosts on 127.0.0.1, started on first use. */
  receiver(): Promise<WebhookReceiver>;
  /** Values that must never appear in a response (keys, signing secrets); checks add what they learn. */
  readonly secrets: Set<string>;
  pass(requirement: string, message: string, evidence?: Exchange | readonly Exchange[]): void;
  fail(requirement: string, failure: Failure): void;
  /** Records a pass when `condition` holds and the failure otherwise; returns `condition`. */
  expect(requirement: string, condition: boolean, failure: Failure | (() => Failure), passMessage?: string): boolean;
  /**
   * The requirement could not be tested here, why, and what would let a run test it (by default the
   * requirement's remedy in harness/remedies.ts).
   */
  skip(requirement: string, reason: string, remedy?: string): void;
  /** A progress note. */
  note(message: string): void;
}
