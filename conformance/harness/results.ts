/**
 * The result of a run: per requirement its status and evidence, per check its outcome, and the summary
 * the exit code is decided from. report.json is this object.
 * @module
 */
import type { Category, Level, Requirement } from '../requirements/types.js';
import type { Coverage } from './coverage.js';
import { type Exchange, evidenceBodyLimit } from './exchange.js';
import type { Observation, Status } from './observations.js';

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
  suite: { name: string; version: string; contractVersion: string };
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
  /** What the run exercised of the contract, and the gaps (harness/coverage.ts). */
  coverage: Coverage;
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
