/**
 * Runs the suite: discovers the target, runs the selected checks (main phase several at once, then the
 * exclusive ones alone, then the sweeps), folds observations into one status per requirement, and
 * reports progress as it goes.
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/contract/paths.js';
import { checks as allChecks } from './checks/index.js';
import type { Check, Phase } from './harness/check.js';
import { requirements as allRequirements } from './requirements/index.js';
import type { Requirement } from './requirements/types.js';
import { loadSuiteContract } from './harness/contract.js';
import { createCheckContext, type SharedRunState } from './harness/context.js';
import { ExchangeLog } from './harness/exchange.js';
import { HttpClient, TransportError } from './harness/http.js';
import { computeCoverage, type Coverage } from './harness/coverage.js';
import { foldStatus, type Observation, SetupFailure } from './harness/observations.js';
import { type PreconditionState, type Unmet, unmet as unmetPrecondition } from './harness/preconditions.js';
import { measurePace } from './harness/pace.js';
import { defaultProfile, type Profile, profileSecrets } from './harness/profiles.js';
import { WebhookReceiver } from './harness/receiver.js';
import { receiverUnreachableReason } from './harness/receiver-reach.js';
import { type CheckResult, exitCodeOf, fold, type RunResult, summarize } from './harness/results.js';
import { errorRemedy } from './harness/remedies.js';
import { checksFor, selectRequirements } from './harness/selection.js';
import { discoverTarget, SuiteError, type Target } from './harness/target.js';

export type ProgressEvent =
  | { type: 'target'; target: Target }
  | { type: 'check-start'; check: Check }
  | { type: 'check-end'; check: Check; result: CheckResult }
  | { type: 'note'; check: Check; message: string };

export interface RunOptions {
  /** The seed's {base_url}. */
  target: string;
  apiKey: string;
  /** A key of another workspace, for isolation. */
  apiKeyB?: string;
  only?: readonly string[];
  profile?: Profile;
  /** Main-phase checks run at once. */
  concurrency?: number;
  /** Real time a session may take to finish. */
  sessionTimeoutMs?: number;
  requestTimeoutMs?: number;
  /**
   * Real time the whole run may take; checks still running then end as errors and the reports are
   * written with what was observed.
   */
  runTimeoutMs?: number;
  /**
   * Real time a check may follow what the target schedules on its own clock when the suite cannot move
   * it (`--real-time-budget`; harness/pace.ts).
   */
  realTimeBudgetMs?: number;
  /** The address the suite's webhook receiver binds and names (127.0.0.1 by default). */
  receiverHost?: string;
  /** The port it listens on (a free one by default): fixed when the target is configured with its URL. */
  receiverPort?: number;
  /** An incomplete verdict exits 0 instead of 3. */
  allowIncomplete?: boolean;
  /** The checks and requirements to use (the suite's own by default; tests pass their own). */
  checks?: readonly Check[];
  requirements?: readonly Requirement[];
  onProgress?: (event: ProgressEvent) => void;
}

const phases: readonly Phase[] = ['main', 'exclusive', 'sweep'];

/** The whole run's real-time limit unless `--timeout` says otherwise: the full suite takes minutes. */
export const defaultRunTimeoutMs = 30 * 60_000;
const discoveryTimeoutMs = 10_000;
const runOutOfTimeRemedy = 'give the run more time with --timeout, or select fewer requirements with --only';

function suiteVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Runs `tasks` with at most `limit` at once, in order of start. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await task(item);
    }
  });
  await Promise.all(workers);
}

export async function runConformance(options: RunOptions): Promise<RunResult> {
  const startedAt = new Date();
  const contract = loadSuiteContract();
  const profile = options.profile ?? defaultProfile;
  const registry = options.requirements ?? allRequirements;
  const selected = selectRequirements(registry, options.only);
  const selectedIds = new Set(selected.map((requirement) => requirement.id));
  const toRun = checksFor(selected, options.checks ?? allChecks);
  const optedIn = profile.includeOptIn || (options.only ?? []).length > 0;
  const timeouts = { sessionMs: options.sessionTimeoutMs ?? 120_000, requestMs: options.requestTimeoutMs ?? 30_000 };

  const log = new ExchangeLog();
  const base = new HttpClient({
    baseUrl: options.target,
    log,
    check: 'discovery',
    credentials: { kind: 'bearer', key: options.apiKey },
    defaultTimeoutMs: timeouts.requestMs,
    realWaitMs: (seconds) => seconds * 1000,
  });
  // A wrong target stops within seconds: discovery waits on no request longer than this.
  const discovery = base.withTimeout(Math.min(timeouts.requestMs, discoveryTimeoutMs));
  const target = await discoverTarget({
    anonymous: discovery.as({ kind: 'none' }),
    keyA: discovery,
    keyB: options.apiKeyB === undefined ? undefined : discovery.as({ kind: 'bearer', key: options.apiKeyB }),
  });
  options.onProgress?.({ type: 'target', target });
  // The whole run has a deadline, counted from here: what is still running then ends as an error, and the
  // reports still come. The waits on the target's replies derive theirs from its pace and this one.
  const runLimitMs = options.runTimeoutMs ?? defaultRunTimeoutMs;
  const pace = measurePace(log.all(), Date.now() + runLimitMs, options.realTimeBudgetMs);
  const http = new HttpClient({ ...base.config, realWaitMs: (seconds) => target.clock.realMs(seconds * 1000) });
  let receiver: Promise<WebhookReceiver> | undefined;
  const shared: SharedRunState = {
    contract,
    target,
    profile,
    log,
    http,
    httpB: options.apiKeyB === undefined ? undefined : http.as({ kind: 'bearer', key: options.apiKeyB }),
    anonymous: http.as({ kind: 'none' }),
    secrets: new Set([
      options.apiKey,
      ...(options.apiKeyB === undefined ? [] : [options.apiKeyB]),
      ...profileSecrets(profile),
    ]),
    receiver: () => (receiver ??= WebhookReceiver.start(options.receiverHost, options.receiverPort)),
    timeouts,
    pace,
  };

  let receiverReach: Promise<string | undefined> | undefined;
  const preconditionState: PreconditionState = {
    target,
    optedIn,
    // A probe that cannot finish (a setup request failed) leaves the delivery checks to find out themselves.
    receiverUnreachable: () =>
      (receiverReach ??= receiverUnreachableReason({ ...shared, http: http.forCheck('delivery probe') }).catch(
        () => undefined,
      )),
  };

  const observations: Observation[] = [];
  const checkResults = new Map<string, CheckResult>();
  const runOne = async (check: Check): Promise<void> => {
    options.onProgress?.({ type: 'check-start', check });
    const started = Date.now();
    const own: Observation[] = [];
    const record = (observation: Observation): void => {
      if (selectedIds.has(observation.requirement)) {
        own.push(observation);
      }
    };
    let unmet: Unmet | undefined;
    for (const name of check.preconditions) {
      if (!runSignal.aborted) {
        unmet ??= await unmetPrecondition(name, preconditionState);
      }
    }
    let reason = unmet?.reason;
    if (runSignal.aborted) {
      reason = runOutOfTime;
      check.requirements.forEach((requirement) =>
        record({
          requirement,
          check: check.name,
          outcome: 'error',
          message: runOutOfTime,
          remedy: runOutOfTimeRemedy,
          evidence: [],
        }),
      );
    } else if (unmet !== undefined) {
      check.requirements.forEach((requirement) =>
        record({
          requirement,
          check: check.name,
          outcome: 'skip',
          message: unmet.reason,
          remedy: unmet.remedy,
          evidence: [],
        }),
      );
    } else {
      reason = await execute(check, shared, timeouts, record, options, own, runSignal);
    }
    observations.push(...own);
    const result: CheckResult = {
      name: check.name,
      category: check.category,
      title: check.title,
      requirements: check.requirements,
      status: foldStatus(own),
      ...(reason === undefined ? {} : { reason }),
      durationMs: Date.now() - started,
    };
    checkResults.set(check.name, result);
    options.onProgress?.({ type: 'check-end', check, result });
  };

  const runOutOfTime = `the run reached its time limit (${Math.round(runLimitMs / 1000)} s) before this check ended`;
  const runController = new AbortController();
  const runSignal = runController.signal;
  const runTimer = setTimeout(() => runController.abort(), runLimitMs);
  runTimer.unref();
  let coverage: Coverage;
  try {
    for (const phase of phases) {
      const inPhase = toRun.filter((check) => check.phase === phase);
      await pool(inPhase, phase === 'main' ? (options.concurrency ?? 6) : 1, runOne);
    }
    const deliveries =
      receiver === undefined
        ? []
        : (await receiver).all().map((delivery) => ({
            headers: delivery.headers,
            body: delivery.rawBody.toString('utf8'),
            ...(delivery.owner === undefined ? {} : { check: delivery.owner }),
          }));
    coverage = computeCoverage({ contract, baseUrl: target.baseUrl, exchanges: log.all(), deliveries });
  } finally {
    clearTimeout(runTimer);
    runController.abort();
    if (receiver !== undefined) {
      await (await receiver).close();
    }
  }

  const requirementResults = selected.map((requirement) => fold(requirement, observations));
  const summary = summarize(requirementResults);
  const finishedAt = new Date();
  return {
    suite: {
      name: 'boardkit conformance',
      version: suiteVersion(),
      contractVersion: String(contract.document.info?.version ?? ''),
    },
    target: {
      baseUrl: target.baseUrl,
      live: target.live,
      liveEvidence: target.liveEvidence,
      announced: target.announced,
      testControl: target.control !== undefined,
      timeScale: target.clock.scale(),
      clockControllable: target.clock.controllable,
      secondKey: target.hasSecondKey,
      latencyMs: Math.round(pace.latencyMs),
    },
    profile: { name: profile.name, description: profile.description },
    selection: [...(options.only ?? [])],
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    requests: log.all().length,
    summary,
    requirements: requirementResults,
    checks: toRun.map((check) => checkResults.get(check.name)!).filter((result) => result !== undefined),
    coverage,
    exitCode: exitCodeOf(summary.verdict, options.allowIncomplete),
  };
}

/** Runs one check; returns the reason it errored, if it did. */
async function execute(
  check: Check,
  shared: SharedRunState,
  timeouts: { sessionMs: number },
  record: (observation: Observation) => void,
  options: RunOptions,
  own: Observation[],
  runSignal: AbortSignal,
): Promise<string | undefined> {
  const controller = new AbortController();
  let limitMs = timeouts.sessionMs * 2 + 60_000;
  const started = Date.now();
  const expire = (): void => controller.abort(new Error(`the check did not finish within ${limitMs / 1000} s`));
  let timer = setTimeout(expire, limitMs);
  // A check that waits in real time for what the run's deadline allows says so; the run's deadline still holds.
  const extendLimit = (realMs: number): void => {
    clearTimeout(timer);
    limitMs += realMs;
    timer = setTimeout(expire, Math.max(0, started + limitMs - Date.now()));
  };
  const onRunEnd = (): void =>
    controller.abort(new Error('the run reached its time limit (--timeout) before this check ended'));
  runSignal.addEventListener('abort', onRunEnd, { once: true });
  const ctx = createCheckContext(
    check,
    shared,
    controller.signal,
    record,
    (message) => options.onProgress?.({ type: 'note', check, message }),
    extendLimit,
  );
  try {
    await Promise.race([
      check.run(ctx),
      new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true }),
      ),
    ]);
    return undefined;
  } catch (error) {
    const reason =
      error instanceof SetupFailure
        ? `setup failed: ${error.message}`
        : error instanceof TransportError
          ? `the target did not answer: ${error.message}`
          : `suite error: ${error instanceof Error ? error.message : String(error)}`;
    const evidence =
      error instanceof SetupFailure && error.evidence !== undefined
        ? [error.evidence]
        : error instanceof TransportError
          ? [error.exchange]
          : [];
    const observed = new Set(own.map((observation) => observation.requirement));
    check.requirements
      .filter((requirement) => !observed.has(requirement))
      .forEach((requirement) =>
        record({
          requirement,
          check: check.name,
          outcome: 'error',
          message: reason,
          remedy: runSignal.aborted ? runOutOfTimeRemedy : errorRemedy(error),
          evidence,
        }),
      );
    return reason;
  } finally {
    clearTimeout(timer);
    runSignal.removeEventListener('abort', onRunEnd);
    controller.abort();
  }
}

export { SuiteError };
