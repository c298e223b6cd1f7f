/**
 * The target's clock as the checks see it. A target with the test-only clock capability reports its time
 * and scale (its simulated time runs `time_scale` times faster than real time), and may let the suite
 * change the scale; a target without it runs in real time and its clock is taken to be the local one.
 * Checks state durations in target time; this module turns them into real waits.
 * @module
 */
import { delay } from './http.js';
import type { TestControl } from './test-control.js';

export interface TargetClock {
  /** The target reports its clock (test control). */
  readonly known: boolean;
  /** The suite can change the target's time scale. */
  readonly controllable: boolean;
  /** The target's current time scale (1 without test control). */
  scale(): number;
  /** The target's time, epoch milliseconds. */
  now(): Promise<number>;
  /** Real milliseconds that `targetMs` of target time take at the current scale. */
  realMs(targetMs: number): number;
  /** Whether `targetMs` of target time can pass within `realBudgetMs` of real time (at most `maxScale` fast). */
  fits(targetMs: number, realBudgetMs: number, maxScale?: number): boolean;
  /**
   * Lets `targetMs` of target time pass, speeding the target up meanwhile when it allows, never beyond
   * `maxScale` (a target that delivers webhooks meanwhile needs its clock slow enough for an attempt's
   * real round trip).
   */
  elapse(targetMs: number, signal?: AbortSignal, maxScale?: number): Promise<void>;
  /** Runs `task` with the target's clock at `scale` when it can be changed (restored afterwards). */
  withScale<T>(scale: number, task: () => Promise<T>): Promise<T>;
}

/** A wait is sped up in steps of about this much real time when the scale can be changed. */
const stepRealMs = 40;
/** The fastest scale the suite asks for. */
const maxScale = 1_000_000;

export function realTimeClock(): TargetClock {
  return {
    known: false,
    controllable: false,
    scale: () => 1,
    now: () => Promise.resolve(Date.now()),
    realMs: (targetMs) => targetMs,
    fits: (targetMs, budget) => targetMs <= budget,
    elapse: (targetMs, signal) => delay(targetMs, signal),
    withScale: (_, task) => task(),
  };
}

export async function controlledClock(control: TestControl): Promise<TargetClock> {
  const initial = await control.clock();
  let scale = initial.timeScale;
  // Whether the scale can change is learnt by setting it to its own value: harmless on any target.
  const controllable = await control.setTimeScale(scale).catch(() => false);
  let canJump: boolean | undefined;

  return {
    known: true,
    controllable,
    scale: () => scale,
    now: async () => (await control.clock()).now,
    realMs: (targetMs) => targetMs / scale,
    fits: (targetMs, budget, ceiling = maxScale) =>
      targetMs / (controllable ? Math.max(scale, ceiling) : scale) <= budget,
    async elapse(targetMs, signal, ceiling = maxScale) {
      const target = (await control.clock()).now + targetMs;
      if (!controllable) {
        for (
          let now = (await control.clock()).now;
          now < target && signal?.aborted !== true;
          now = (await control.clock()).now
        ) {
          await delay(Math.max(1, Math.min(stepRealMs, (target - now) / scale)), signal);
        }
        return;
      }
      if (canJump !== false && ceiling > scale) {
        // A jump is exact; a target that ignores `advance_ms` shows it by not moving, and is not asked again.
        // Asked for normal speed (`maxScale` at or below the scale), the clock runs instead of jumping.
        const jumped = await control.advance(targetMs).catch(() => undefined);
        canJump = jumped !== undefined && jumped.now >= target;
        if (canJump) {
          return;
        }
      }
      // Each step runs the clock fast enough to cover a sixth of what remains in `stepRealMs`, then stops
      // it back to its normal speed and reads it in the same request, so request latency is not
      // multiplied; a step overshoots only if it takes six times its real time (a very busy machine).
      for (let now = (await control.clock()).now; now < target && signal?.aborted !== true;) {
        const remaining = target - now;
        const fast = Math.min(ceiling, Math.max(scale, remaining / 6 / stepRealMs));
        await control.setTimeScale(fast);
        await delay(Math.max(1, Math.min(stepRealMs, remaining / fast)), signal);
        now = (await control.switchTimeScale(scale)).now;
      }
    },
    async withScale(wanted, task) {
      if (!controllable || wanted === scale) {
        return task();
      }
      const normal = scale;
      await control.setTimeScale(wanted);
      scale = wanted;
      try {
        return await task();
      } finally {
        await control.setTimeScale(normal);
        scale = normal;
      }
    },
  };
}
