/**
 * What checks record: one observation per requirement outcome they saw, with its evidence. The runner
 * folds the observations of every check into one status per requirement.
 * @module
 */
import type { Exchange } from './exchange.js';

export type Status = 'pass' | 'fail' | 'skip' | 'error';

/** Typed failures, so reports and tests can tell a wrong status from a schema or a timing failure. */
export type FailureKind =
  | 'status'
  | 'media-type'
  | 'header'
  | 'schema'
  | 'problem'
  | 'leak'
  | 'replay'
  | 'duplicate'
  | 'gap'
  | 'isolation'
  | 'signature'
  | 'timestamp'
  | 'timing'
  | 'sequence'
  | 'state'
  | 'delivery'
  | 'variant'
  | 'limit';

export interface Failure {
  kind: FailureKind;
  message: string;
  expected?: unknown;
  got?: unknown;
  evidence?: Exchange | readonly Exchange[];
}

export interface Observation {
  requirement: string;
  check: string;
  outcome: Status;
  message: string;
  kind?: FailureKind;
  expected?: unknown;
  got?: unknown;
  /** For a skip or an error: what would let a run check the requirement (a flag, a capability of the target). */
  remedy?: string;
  evidence: readonly Exchange[];
}

function isExchangeList(evidence: Exchange | readonly Exchange[]): evidence is readonly Exchange[] {
  return Array.isArray(evidence);
}

export function evidenceList(evidence: Exchange | readonly Exchange[] | undefined): readonly Exchange[] {
  if (evidence === undefined) {
    return [];
  }
  return isExchangeList(evidence) ? evidence : [evidence];
}

/** A failure in one expression: its kind, the message, what was expected, what came, and the exchanges that show it. */
export function failure(
  kind: FailureKind,
  message: string,
  expected: unknown,
  got: unknown,
  evidence?: Exchange | readonly Exchange[],
): Failure {
  return evidence === undefined ? { kind, message, expected, got } : { kind, message, expected, got, evidence };
}

/** Folds observations into one status: any failure fails; else an error; else a pass; else a skip. */
export function foldStatus(observations: readonly Observation[]): Status {
  const outcomes = new Set(observations.map((observation) => observation.outcome));
  for (const status of ['fail', 'error', 'pass'] as const) {
    if (outcomes.has(status)) {
      return status;
    }
  }
  return 'skip';
}

/** Thrown by a check when the target did not let it set up what it needs; its requirements get `error`. */
export class SetupFailure extends Error {
  constructor(
    message: string,
    readonly evidence?: Exchange,
  ) {
    super(message);
    this.name = 'SetupFailure';
  }
}
