/**
 * The context a check runs with: its clients, the target, the clock, the receiver, and the recorder of
 * its observations.
 * @module
 */
import type { Check, CheckContext } from './check.js';
import type { Contract } from './contract.js';
import type { Exchange, ExchangeLog } from './exchange.js';
import type { HttpClient } from './http.js';
import type { Pace } from './pace.js';
import { evidenceList, type Failure, type Observation } from './observations.js';
import type { Profile } from './profiles.js';
import { remedyFor } from './remedies.js';
import type { WebhookReceiver } from './receiver.js';
import type { Target } from './target.js';

export interface SharedRunState {
  contract: Contract;
  target: Target;
  profile: Profile;
  log: ExchangeLog;
  http: HttpClient;
  httpB: HttpClient | undefined;
  anonymous: HttpClient;
  secrets: Set<string>;
  receiver: () => Promise<WebhookReceiver>;
  timeouts: { sessionMs: number; requestMs: number };
  pace: Pace;
}

/** Observations outside the check's declared requirements are a defect of the suite, not of the target. */
export class UndeclaredRequirement extends Error {}

export function createCheckContext(
  check: Check,
  shared: SharedRunState,
  signal: AbortSignal,
  record: (observation: Observation) => void,
  note: (message: string) => void,
  extendLimit: (realMs: number) => void = () => undefined,
): CheckContext {
  const declared = new Set(check.requirements);
  const observe = (observation: Observation): void => {
    // A check cut off by its time limit or the run's judges nothing more: what it saw after is partial.
    if (signal.aborted) {
      return;
    }
    if (!declared.has(observation.requirement)) {
      throw new UndeclaredRequirement(`${check.name} recorded ${observation.requirement}, which it does not declare`);
    }
    record(observation);
  };
  const pass = (requirement: string, message: string, evidence?: Exchange | readonly Exchange[]): void =>
    observe({ requirement, check: check.name, outcome: 'pass', message, evidence: evidenceList(evidence) });
  const fail = (requirement: string, failure: Failure): void =>
    observe({
      requirement,
      check: check.name,
      outcome: 'fail',
      message: failure.message,
      kind: failure.kind,
      expected: failure.expected,
      got: failure.got,
      evidence: evidenceList(failure.evidence),
    });
  return {
    name: check.name,
    contract: shared.contract,
    target: shared.target,
    profile: shared.profile,
    http: shared.http.forCheck(check.name, signal),
    httpB: shared.httpB?.forCheck(check.name, signal),
    anonymous: shared.anonymous.forCheck(check.name, signal),
    clock: shared.target.clock,
    signal,
    timeouts: shared.timeouts,
    pace: shared.pace,
    extendLimit,
    exchanges: () => shared.log.all(),
    // Deliveries to the endpoints a check makes count as that check's in the coverage of the run.
    receiver: async () => (await shared.receiver()).forCheck(check.name),
    secrets: shared.secrets,
    pass,
    fail,
    expect(requirement, condition, failure, passMessage) {
      if (condition) {
        pass(requirement, passMessage ?? 'as expected', typeof failure === 'function' ? undefined : failure.evidence);
      } else {
        fail(requirement, typeof failure === 'function' ? failure() : failure);
      }
      return condition;
    },
    skip: (requirement, reason, remedy) =>
      observe({
        requirement,
        check: check.name,
        outcome: 'skip',
        message: reason,
        remedy: remedy ?? remedyFor(requirement, check.category),
        evidence: [],
      }),
    note,
  };
}
