/**
 * The result of a run: per requirement its status and evidence, per check its outcome, and the summary
 * the exit code is decided from. report.json is this object.
 * @module
 */
import type { Category, Level, Requirement } from '../requirements/types.js';
import type { Coverage } from './coverage.js';
import { type Exchange, evidenceBodyLimit } from './exchange.js';
import { foldStatus, type Observation, type Status } from './observations.js';

export interface EvidenceRecord {
  id: number;
  inbound?: boolean;
  request: Exchange['request'];
  response?: Exchange['response'] & { truncated?: boolean };
  error?: string;
  durationMs: number;
}

/** An observation as the report holds it: under its requirement, its exchanges as evidence records. */
export interface ObservationRecord extends Omit<Observation, 'requirement' | 'evidence'> {
  evidence: EvidenceRecord[];
}

/** A requirement of the registry with what the run found. */
export interface RequirementResult extends Requirement {
  status: Status;
  /** Why it was skipped or errored; for a pass with skipped parts, what was not tested. */
  reason?: string;
  /** For a skip or an error: what would let the next run check it. */
  remedy?: string;
  observations: ObservationRecord[];
}

export interface CheckResult {
  name: string;
  category: Category;
  title: string;
  requirements: readonly string[];
  status: Status;
  reason?: string;
  durationMs: number;
}

export interface TargetSummary {
  baseUrl: string;
  live: boolean;
  liveEvidence: string;
  announced: Record<string, unknown>;
  testControl: boolean;
  timeScale: number;
  clockControllable: boolean;
  secondKey: boolean;
  /** The target's pace: the median real latency of the discovery requests, ms (harness/pace.ts). */
  latencyMs?: number;
}

export type Counts = Record<Status, number>;

/**
 * The three outcomes of a run: every selected MUST ran and passed; a MUST failed; or none failed but some
 * could not be checked (skipped or errored), each listed with what would enable it.
 */
export type Verdict = 'conformant' | 'not conformant' | 'incomplete';

/** A MUST requirement the run could not check, and what would let the next run check it. */
export interface UncheckedRequirement {
  id: string;
  status: 'skip' | 'error';
  reason: string;
  remedy: string;
}

export interface RunSummary {
  requirements: Counts & { total: number };
  byLevel: Record<Level, Counts>;
  /** IDs of the MUST requirements that failed: any makes the verdict `not conformant`. */
  mustFailures: string[];
  /** The MUST requirements that were not checked: any (with no failure) makes the verdict `incomplete`. */
  mustUnchecked: UncheckedRequirement[];
  verdict: Verdict;
}

export interface RunResult {
  /** `title` heads the HTML report; the API suite's when absent. */
  suite: { name: string; version: string; contractVersion: string; title?: string };
  target: TargetSummary;
  profile: { name: string; description: string };
  selection: string[];
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Requests the suite sent to the target (event-stream connections included). */
  requests: number;
  summary: RunSummary;
  requirements: RequirementResult[];
  checks: CheckResult[];
  /**
   * What the run exercised of the contract, and the gaps (harness/coverage.ts); a run that does not call
   * the API (the receiver suite) has none.
   */
  coverage?: Coverage;
  /**
   * 0 conformant, 1 not conformant, 3 incomplete (0 when the run allows it); 2, the suite could not run,
   * never has a result.
   */
  exitCode: VerdictExitCode;
}

/** The exit codes of a conformance run, one per verdict, and 2 for a run that could not happen. */
export const exitCodes = { conformant: 0, 'not conformant': 1, 'could not run': 2, incomplete: 3 } as const;
export type VerdictExitCode = 0 | 1 | 3;

/** The exit code of a verdict; `allowIncomplete` lets an incomplete run pass. */
export function exitCodeOf(verdict: Verdict, allowIncomplete = false): VerdictExitCode {
  return verdict === 'incomplete' && allowIncomplete ? exitCodes.conformant : exitCodes[verdict];
}

/** The one-line verdict the console ends with, also in junit.xml and report.html. */
export function verdictLine(summary: RunSummary): string {
  switch (summary.verdict) {
    case 'conformant':
      return 'Verdict: conformant (every selected MUST requirement ran and passed).';
    case 'not conformant':
      return `Verdict: not conformant (MUST requirements failed: ${summary.mustFailures.join(', ')}).`;
    case 'incomplete':
      return `Verdict: incomplete (no MUST requirement failed, but ${summary.mustUnchecked.length} could not be checked: ${summary.mustUnchecked.map((one) => one.id).join(', ')}).`;
  }
}

/** Evidence cut to report size: bodies over `evidenceBodyLimit` characters are truncated. */
export function evidenceRecord(exchange: Exchange): EvidenceRecord {
  const cut = (text: string | undefined): string | undefined =>
    text === undefined || text.length <= evidenceBodyLimit ? text : `${text.slice(0, evidenceBodyLimit)}…`;
  const request = {
    ...exchange.request,
    ...(exchange.request.body === undefined ? {} : { body: cut(exchange.request.body)! }),
  };
  const response =
    exchange.response === undefined
      ? undefined
      : {
          ...exchange.response,
          body: cut(exchange.response.body)!,
          ...(exchange.response.body.length > evidenceBodyLimit ? { truncated: true } : {}),
        };
  return {
    id: exchange.id,
    ...(exchange.inbound === true ? { inbound: true } : {}),
    request,
    ...(response === undefined ? {} : { response }),
    ...(exchange.error === undefined ? {} : { error: exchange.error }),
    durationMs: exchange.durationMs,
  };
}

/** Passes keep a little evidence, failures all of it (a passing requirement can have thousands of exchanges). */
export function observationRecord(observation: Observation): ObservationRecord {
  const evidence =
    observation.outcome === 'pass' ? observation.evidence.slice(0, 2) : observation.evidence.slice(0, 12);
  return {
    check: observation.check,
    outcome: observation.outcome,
    message: observation.message,
    ...(observation.kind === undefined ? {} : { kind: observation.kind }),
    ...(observation.remedy === undefined ? {} : { remedy: observation.remedy }),
    ...(observation.expected === undefined ? {} : { expected: observation.expected }),
    ...(observation.got === undefined ? {} : { got: observation.got }),
    evidence: evidence.map(evidenceRecord),
  };
}

export function emptyCounts(): Counts {
  return { pass: 0, fail: 0, skip: 0, error: 0 };
}

const outcomeOrder: Record<Status, number> = { fail: 0, error: 1, skip: 2, pass: 3 };
/** Per requirement, every failure is kept (up to 50) but only a sample of the passes. */
const keptPerOutcome: Record<Status, number> = { fail: 50, error: 20, skip: 20, pass: 10 };

/** One requirement's status, reason and kept evidence, from every observation of the run. */
export function fold(requirement: Requirement, observations: readonly Observation[]): RequirementResult {
  const own = observations
    .filter((observation) => observation.requirement === requirement.id)
    .sort((a, b) => outcomeOrder[a.outcome] - outcomeOrder[b.outcome]);
  const status = foldStatus(own);
  const skips = [
    ...new Set(own.filter((observation) => observation.outcome === 'skip').map((observation) => observation.message)),
  ];
  const errors = [
    ...new Set(own.filter((observation) => observation.outcome === 'error').map((observation) => observation.message)),
  ];
  const reason =
    status === 'skip'
      ? skips.join('; ') || 'no check observed it'
      : status === 'error'
        ? errors.join('; ')
        : status === 'pass' && skips.length > 0
          ? `partly tested: ${skips.join('; ')}`
          : undefined;
  const remedies = [
    ...new Set(
      own
        .filter((observation) => observation.outcome === status && observation.remedy !== undefined)
        .map((observation) => observation.remedy!),
    ),
  ];
  const remedy =
    status === 'skip' || status === 'error'
      ? remedies.join('; ') || 'select it with --only and run again; the report says why no check observed it'
      : undefined;
  const kept = (Object.keys(keptPerOutcome) as Status[]).flatMap((outcome) =>
    own.filter((observation) => observation.outcome === outcome).slice(0, keptPerOutcome[outcome]),
  );
  return {
    id: requirement.id,
    level: requirement.level,
    category: requirement.category,
    seed: requirement.seed,
    provenance: requirement.provenance,
    statement: requirement.statement,
    checks: requirement.checks,
    ...(requirement.references === undefined ? {} : { references: requirement.references }),
    status,
    ...(reason === undefined ? {} : { reason }),
    ...(remedy === undefined ? {} : { remedy }),
    observations: kept.sort((a, b) => outcomeOrder[a.outcome] - outcomeOrder[b.outcome]).map(observationRecord),
  };
}

/** The counts, the MUST failures and the MUST not checked, and the verdict they decide. */
export function summarize(results: readonly RequirementResult[]): RunResult['summary'] {
  const requirements = { ...emptyCounts(), total: results.length };
  const byLevel: Record<Level, ReturnType<typeof emptyCounts>> = {
    MUST: emptyCounts(),
    SHOULD: emptyCounts(),
    MAY: emptyCounts(),
  };
  for (const result of results) {
    requirements[result.status]++;
    byLevel[result.level][result.status]++;
  }
  const must = results.filter((result) => result.level === 'MUST');
  const mustFailures = must.filter((result) => result.status === 'fail').map((result) => result.id);
  const mustUnchecked = must
    .filter(
      (result): result is RequirementResult & { status: 'skip' | 'error' } =>
        result.status === 'skip' || result.status === 'error',
    )
    .map((result) => ({
      id: result.id,
      status: result.status,
      reason: result.reason ?? '',
      remedy: result.remedy ?? '',
    }));
  const verdict: Verdict =
    mustFailures.length > 0 ? 'not conformant' : mustUnchecked.length > 0 ? 'incomplete' : 'conformant';
  return { requirements, byLevel, mustFailures, mustUnchecked, verdict };
}
