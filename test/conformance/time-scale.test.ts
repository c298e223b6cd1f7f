/**
 * The suite against the reference server sped up 1000 times. Without the time control the suite cannot
 * know the target's speed, so it must judge only what holds at any speed: `wait_ms` and signature
 * timestamps are wall-clock (docs/decisions.md "Time and other implementations"), and a requirement
 * that needs the target's time is skipped with its reason, never failed. With the time control the whole
 * suite passes at that speed too.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtInProfiles, type Profile } from '../../conformance/harness/profiles.js';
import type { RunResult } from '../../conformance/harness/results.js';
import { runConformance } from '../../conformance/runner.js';
import { startServer } from '../../src/server/server.js';
import { keyA, keyB, startReferenceTarget } from './support/reference-target.js';

const timeScale = 1000;

function notPassed(result: RunResult): string[] {
  return result.requirements
    .filter((requirement) => requirement.level !== 'MAY' && requirement.status !== 'pass')
    .map(
      (requirement) =>
        `${requirement.id} ${requirement.status}: ${requirement.reason ?? requirement.observations.find((one) => one.outcome === 'fail')?.message ?? ''}`,
    );
}

interface Judged {
  close: () => Promise<void>;
  result: RunResult;
}

/** The suite's verdict on `target` under `profile`; the target is closed at once if the run fails. */
async function judged(target: { baseUrl: string; close: () => Promise<void> }, profile: Profile): Promise<Judged> {
  try {
    const result = await runConformance({ target: target.baseUrl, apiKey: keyA, apiKeyB: keyB, profile });
    return { close: () => target.close(), result };
  } catch (error) {
    await target.close();
    throw error;
  }
}

/** Without the time control: a server started without the test-only control plane. */
const withoutTimeControl = async (): Promise<Judged> =>
  judged(
    await startServer({
      host: '127.0.0.1',
      port: 0,
      db: ':memory:',
      apiKeys: [keyA, keyB],
      timeScale,
      allowLoopbackWebhookUrls: true,
      onError: () => undefined,
    }),
    builtInProfiles['full']!,
  );

/** With it: the reference target, whose control plane is on. */
const withTimeControl = async (): Promise<Judged> =>
  judged(await startReferenceTarget({ timeScale }), builtInProfiles['reference']!);

// The two runs mostly wait on their servers' simulated time: they run side by side.
let runs: Judged[] = [];

beforeAll(async () => {
  const settled = await Promise.allSettled([withoutTimeControl(), withTimeControl()]);
  runs = settled.flatMap((one) => (one.status === 'fulfilled' ? [one.value] : []));
  const failed = settled.find((one) => one.status === 'rejected');
  if (failed !== undefined) {
    throw failed.reason;
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(runs.map((run) => run.close()));
});

describe(`the reference server at --time-scale ${timeScale} without the time control`, () => {
  let result: RunResult;

  beforeAll(() => {
    result = runs[0]!.result;
  });

  test('the suite finds no time control, and no MUST or SHOULD requirement fails or errors', () => {
    expect(result.target).toMatchObject({ live: true, testControl: false });
    expect(notPassed(result).filter((line) => !line.includes(' skip: '))).toEqual([]);
    // What needs the target's time cannot be checked here: the run is incomplete, and says what would enable each.
    expect(result.summary.verdict).toBe('incomplete');
    expect(result.exitCode).toBe(3);
    expect(result.summary.mustUnchecked.map((one) => one.id)).toContain('IDEM-007');
    expect(result.summary.mustUnchecked.filter((one) => one.remedy === '')).toEqual([]);
  });

  test('the long polls and the signature timestamps are judged, not skipped', () => {
    const status = Object.fromEntries(result.requirements.map((requirement) => [requirement.id, requirement.status]));
    expect({ poll: [status['POLL-001'], status['POLL-002']], timestamp: status['HOOK-004'] }).toEqual({
      poll: ['pass', 'pass'],
      timestamp: 'pass',
    });
  });

  test("what needs the target's time is skipped with a reason", () => {
    const skipped = result.requirements.filter((requirement) => requirement.status === 'skip');
    expect(skipped.map((requirement) => requirement.id)).toEqual(expect.arrayContaining(['IDEM-007', 'HOOK-009']));
    expect(skipped.filter((requirement) => (requirement.reason ?? '') === '')).toEqual([]);
    // A minute's window passes in 60 ms: unless a burst happens to spend the quota within one window (a
    // pass), the suite says why it cannot judge the rate limit.
    const rateLimit = result.requirements.find((requirement) => requirement.id === 'RATE-001');
    if (rateLimit?.status !== 'pass') {
      expect(rateLimit?.reason).toMatch(
        /^the quota window started again \d+ times during a burst of \d+ requests: the target's clock runs faster than real time/,
      );
    }
  });
});

describe(`the reference server at --time-scale ${timeScale} with the time control`, () => {
  let result: RunResult;

  beforeAll(() => {
    result = runs[1]!.result;
  });

  test('every MUST and SHOULD requirement passes, except the rate limits the profile leaves out', () => {
    expect(result.target).toMatchObject({ testControl: true, clockControllable: true });
    expect(notPassed(result).filter((line) => !line.startsWith('RATE-'))).toEqual([]);
    // The rate limits (MUST among them) run only when selected: without them the run is incomplete.
    expect(result.summary.mustUnchecked.map((one) => one.id)).toEqual(['RATE-001', 'RATE-002', 'RATE-003']);
    expect(result.summary.mustUnchecked[0]?.remedy).toMatch(/--only rate-limits/);
    expect(result.exitCode).toBe(3);
  });
});
