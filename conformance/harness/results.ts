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
}

export type Counts = Record<Status, number>;

export interface RunSummary {
  requirements: Counts & { total: number };
  byLevel: Record<Level, Counts>;
  /** IDs of the MUST requirements that failed: any makes the exit code 1. */
  mustFailures: string[];
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
  /** 0 when no MUST failed, 1 when one did (2, the suite could not run, never has a result). */
  exitCode: 0 | 1;
}

/** Evidence cut to report size: bodies over `evidenceBodyLimit` characters are truncated. */
export function evidenceRecord(exchange: Exchange): EvidenceRecord {
  const cut = (text: string | undefined): string | undefined => (text === undefined || text.length <= evidenceBodyLimit ? text : `${text.slice(0, evidenceBodyLimit)}…`);
  const request = { ...exchange.request, ...(exchange.request.body === undefined ? {} : { body: cut(exchange.request.body)! }) };
  const response = exchange.response === undefined ? undefined : { ...exchange.response, body: cut(exchange.response.body)!, ...(exchange.response.body.length > evidenceBodyLimit ? { truncated: true } : {}) };
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
  const evidence = observation.outcome === 'pass' ? observation.evidence.slice(0, 2) : observation.evidence.slice(0, 12);
  return {
    check: observation.check,
    outcome: observation.outcome,
    message: observation.message,
    ...(observation.kind === undefined ? {} : { kind: observation.kind }),
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
  const own = observations.filter((observation) => observation.requirement === requirement.id).sort((a, b) => outcomeOrder[a.outcome] - outcomeOrder[b.outcome]);
  const status = foldStatus(own);
  const skips = [...new Set(own.filter((observation) => observation.outcome === 'skip').map((observation) => observation.message))];
  const errors = [...new Set(own.filter((observation) => observation.outcome === 'error').map((observation) => observation.message))];
  const reason =
    status === 'skip' ? (skips.join('; ') || 'no check observed it') : status === 'error' ? errors.join('; ') : status === 'pass' && skips.length > 0 ? `partly tested: ${skips.join('; ')}` : undefined;
  const kept = (Object.keys(keptPerOutcome) as Status[]).flatMap((outcome) => own.filter((observation) => observation.outcome === outcome).slice(0, keptPerOutcome[outcome]));
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
    observations: kept.sort((a, b) => outcomeOrder[a.outcome] - outcomeOrder[b.outcome]).map(observationRecord),
  };
}

/** The counts and the MUST failures the exit code is decided from. */
export function summarize(results: readonly RequirementResult[]): RunResult['summary'] {
  const requirements = { ...emptyCounts(), total: results.length };
  const byLevel: Record<Level, ReturnType<typeof emptyCounts>> = { MUST: emptyCounts(), SHOULD: emptyCounts(), MAY: emptyCounts() };
  for (const result of results) {
    requirements[result.status]++;
    byLevel[result.level][result.status]++;
  }
  return { requirements, byLevel, mustFailures: results.filter((result) => result.level === 'MUST' && result.status === 'fail').map((result) => result.id) };
}
