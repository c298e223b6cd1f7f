/**
 * A sped-up clock across restarts. With `--time-scale` simulated time runs ahead of real time, so a
 * server started again on the same store would begin at real time, behind the times its records were
 * written at: pending steps and webhook retries would wait again for time that had already passed, and
 * new records would be stamped earlier than old ones. So the running server saves a floor in the store
 * every second, the simulated time two real seconds ahead, and a restart starts its clock at the floor
 * when that is later than real time. Over a stop or a crash simulated time may jump forward, as it does
 * over any downtime, but never back.
 * @module
 */
import { scaledClock, type ScaledClock } from './clock.js';
import type { Store } from './store/index.js';

const saveEveryMs = 1_000;

export interface FlooredClock {
  clock: ScaledClock;
  /** Stops saving; on a clean stop the floor is the time reached, exactly. */
  stop(): void;
}

export function flooredScaledClock(store: Store, scale: number): FlooredClock {
  const clock = scaledClock(scale, Date.now, store.meta.clockFloor());
  // Saved at real speed too, since the test-only time control may speed the clock up or jump it forward;
  // the scale is read at each save for the same reason.
  const save = (): void => store.meta.saveClockFloor(clock.now() + Math.ceil(2 * saveEveryMs * clock.scale()));
  save();
  const timer = setInterval(save, saveEveryMs);
  timer.unref();
  return {
    clock,
    stop() {
      clearInterval(timer);
      if (store.db.open) {
        store.meta.saveClockFloor(clock.now());
      }
    },
  };
}
