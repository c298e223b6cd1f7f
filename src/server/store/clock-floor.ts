/**
 * A sped-up clock across restarts. With `--time-scale` simulated time runs ahead of real time, so a
 * server started again on the same store would begin at real time, behind the times its records were
 * written at: pending steps and webhook retries would wait again for time that had already passed, and
 * new records would be stamped earlier than old ones. So the running server saves a floor in the store
 * every second (and at once after a jump or a change of speed), the simulated time two real seconds
 * ahead, and a restart starts its clock at the floor when that is later than real time. Over a stop or a
 * crash simulated time may jump forward, as it does over any downtime, but never back.
 * @module
 */
import { scaledClock, type ScaledClock } from '../core/clock.js';
import type { Store } from '../ports/store.js';

const saveEveryMs = 1_000;

export interface FlooredClock {
  clock: ScaledClock;
  /** Stops saving; on a clean stop the floor is the time reached, exactly. */
  stop(): void;
}

export function flooredScaledClock(store: Store, scale: number): FlooredClock {
  const scaled = scaledClock(scale, Date.now, store.meta.clockFloor());
  // The scale is read at each save, since the test-only time control may change it.
  const save = (): void => store.meta.saveClockFloor(scaled.now() + Math.ceil(2 * saveEveryMs * scaled.scale()));
  // A jump or a new speed is saved at once: a crash before the next tick must not take the clock back
  // behind the records stamped after the jump.
  const clock: ScaledClock = {
    ...scaled,
    advance(ms) {
      scaled.advance(ms);
      save();
    },
    setScale(next) {
      scaled.setScale(next);
      save();
    },
  };
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
