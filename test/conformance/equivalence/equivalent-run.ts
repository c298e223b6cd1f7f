/**
 * Runs the suite against the reference server directly and through the rewriting proxy, each time on a
 * fresh server, and gives the verdict per requirement, so a test can ask that a variant changes none.
 */
import { builtInProfiles, type Profile } from '../../../conformance/harness/profiles.js';
import type { RunResult } from '../../../conformance/harness/results.js';
import { selectRequirements } from '../../../conformance/harness/selection.js';
import { requirements } from '../../../conformance/requirements/index.js';
import { runConformance } from '../../../conformance/runner.js';
import { keyA, keyB, type ReferenceTargetOptions, startReferenceTarget } from '../support/reference-target.js';
import { startRewritingProxy, type Variant } from './proxy.js';

/** Every published variant accepted, the rate limits included: what another implementation is held to. */
export const everyVariant: Profile = builtInProfiles['full']!;

export interface Verdict {
  exitCode: number;
  /** Requirement id → status, and the first failure's message for one that did not pass. */
  statuses: Record<string, string>;
}

function verdictOf(result: RunResult): Verdict {
  return {
    exitCode: result.exitCode,
    statuses: Object.fromEntries(
      result.requirements.map((requirement) => [
        requirement.id,
        // A MAY left out (a variant without the optional member) fails nothing: pass or skip, same verdict.
        requirement.level === 'MAY' && (requirement.status === 'pass' || requirement.status === 'skip')
          ? 'no failure'
          : requirement.status === 'pass'
            ? 'pass'
            : `${requirement.status}: ${requirement.reason ?? requirement.observations.find((one) => one.outcome !== 'pass')?.message ?? ''}`,
      ]),
    ),
  };
}

/**
 * How many runs go at once. A run mostly waits on the server's simulated time (a full run is about ten
 * seconds of which a third is CPU), so rows run side by side; more at once would make the timing checks
 * compete for the two cores the suite is sized for.
 */
const lanes = 3;
let running = 0;
const waiting: (() => void)[] = [];

async function inLane<T>(work: () => Promise<T>): Promise<T> {
  if (running >= lanes) {
    await new Promise<void>((go) => waiting.push(go));
  } else {
    running += 1;
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next === undefined) {
      running -= 1;
    } else {
      next();
    }
  }
}

let wholeDirect: Promise<Verdict> | undefined;

/**
 * The verdict on the reference server itself for a selection: the requirements it selects, taken from one
 * run of the whole suite (every requirement passes there, so a selection's run could only repeat them).
 * Its exit code is the whole run's: a failure outside the selection fails every row's exit code too.
 */
export async function directVerdict(only: readonly string[] | undefined): Promise<Verdict> {
  wholeDirect ??= verdict(undefined);
  const whole = await wholeDirect;
  const selected = new Set(selectRequirements(requirements, only).map((requirement) => requirement.id));
  return {
    exitCode: whole.exitCode,
    statuses: Object.fromEntries(Object.entries(whole.statuses).filter(([id]) => selected.has(id))),
  };
}

/** The requirements a verdict fails or could not judge, with why: empty for a conformant run. */
export function unmet(result: Verdict): Record<string, string> {
  return Object.fromEntries(Object.entries(result.statuses).filter(([, status]) => /^(fail|error)\b/.test(status)));
}

/** The suite's verdict on the reference server (started with `server`), through `variant` when given. */
export function verdict(...run: Parameters<typeof verdictNow>): Promise<Verdict> {
  return inLane(() => verdictNow(...run));
}

async function verdictNow(
  variant: Variant | undefined,
  only?: readonly string[],
  server: ReferenceTargetOptions = {},
  profile: Profile = everyVariant,
): Promise<Verdict> {
  const target = await startReferenceTarget(server);
  const proxy = variant === undefined ? undefined : await startRewritingProxy(target.baseUrl, variant);
  try {
    return verdictOf(
      await runConformance({
        target: proxy?.baseUrl ?? target.baseUrl,
        apiKey: keyA,
        apiKeyB: keyB,
        profile,
        ...(only === undefined ? {} : { only }),
      }),
    );
  } finally {
    await proxy?.close();
    await target.close();
  }
}
