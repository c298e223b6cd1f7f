/**
 * Drives board runs on the server clock. The simulator computes a step and says how long it takes; the
 * driver waits that long (simulated time) and then publishes it. What a run needs to be rebuilt is kept
 * in the session's row: the simulator's input, how many steps were computed, and the messages taken in
 * between. The simulator is deterministic, so after a restart replaying those gives the same run, and
 * the pending step is published when it falls due: nothing is lost or repeated.
 * @module
 */
import { createRun, type BoardRun, type BoardStep, type RunInput } from '../../../board/debate.js';
import type { SendMessageRequest } from '../../../board/types.js';
import type { ClockTimer, RunDriver, Services, SessionChanges } from '../../ports/services.js';
import { isActive } from './lifecycle.js';
import { publishRunBegun, publishStep } from './publish.js';
import { internalError } from '../../core/internal-errors.js';

/**
 * Simulated time from a start to the board taking its seats (designed). Until then the session is
 * `created` with `v4_phase` `queued`; then it is `running` (docs/session-lifecycle.md).
 */
export const boardConvenesAfterMs = 1_000;

/** The durable state of a run in progress (the `run` column). */
export interface RunState {
  input: RunInput;
  /** How many steps the simulator has computed; the last one is pending (not yet published). */
  computed: number;
  /** Messages taken into the run, each after `after` computed steps. */
  messages: Array<{ after: number; message: SendMessageRequest }>;
}

interface LiveRun {
  state: RunState;
  run: BoardRun;
  /** The computed step waiting for its time; `undefined` while the board has not convened. */
  pending: BoardStep | undefined;
  timer: ClockTimer | undefined;
}

const missing = (sessionId: string): never => {
  throw internalError('BOARDKIT_RUN_NOT_IN_PROGRESS', sessionId);
};

export function runDriver(services: Services, changes: SessionChanges, onError: (error: unknown) => void): RunDriver {
  const { store, clock } = services;
  const live = new Map<string, LiveRun>();

  function schedule(sessionId: string, entry: LiveRun, dueAt: number): void {
    entry.timer?.cancel();
    entry.timer = clock.setTimer(Math.max(0, dueAt - clock.now()), () => {
      try {
        publishDue(sessionId);
      } catch (error) {
        onError(error);
      }
    });
  }

  /** Computes the next step, records the run and schedules the step; the run ends when there is none. */
  function advance(sessionId: string, entry: LiveRun): void {
    const step = entry.run.nextStep();
    if (step === undefined) {
      live.delete(sessionId);
      store.sessions.setRun(sessionId, null, null);
      return;
    }
    entry.pending = step;
    entry.state = { ...entry.state, computed: entry.state.computed + 1 };
    const dueAt = clock.now() + step.simulatedMs;
    store.sessions.setRun(sessionId, entry.state, dueAt);
    schedule(sessionId, entry, dueAt);
  }

  function publishDue(sessionId: string): void {
    const entry = live.get(sessionId);
    if (entry === undefined) {
      return;
    }
    const step = entry.pending;
    store.transaction(() => {
      const row = store.sessions.getAny(sessionId);
      if (row === undefined || !isActive(row.session.status)) {
        live.delete(sessionId);
        if (row !== undefined) {
          store.sessions.setRun(sessionId, null, null);
        }
        return;
      }
      if (step === undefined) {
        publishRunBegun(services, row);
      } else {
        publishStep(services, row, step, entry.run.currentRound);
      }
      advance(sessionId, entry);
    });
    changes.notify(sessionId);
  }

  /** Rebuilds a run from its recorded state: the same input, steps and messages in the same order. */
  function replay(state: RunState): { run: BoardRun; pending: BoardStep | undefined } {
    const run = createRun(state.input);
    let pending: BoardStep | undefined;
    for (let index = 0; index <= state.computed; index += 1) {
      state.messages.filter((entry) => entry.after === index).forEach((entry) => run.sendMessage(entry.message));
      if (index < state.computed) {
        pending = run.nextStep();
      }
    }
    return { run, pending };
  }

  return {
    begin(sessionId, input) {
      const entry: LiveRun = {
        state: { input, computed: 0, messages: [] },
        run: createRun(input),
        pending: undefined,
        timer: undefined,
      };
      live.set(sessionId, entry);
      if (store.sessions.getAny(sessionId)?.session.status === 'created') {
        const dueAt = clock.now() + boardConvenesAfterMs;
        store.sessions.setRun(sessionId, entry.state, dueAt);
        schedule(sessionId, entry, dueAt);
        return;
      }
      advance(sessionId, entry);
    },
    sendMessage(sessionId, message) {
      const entry = live.get(sessionId);
      if (entry === undefined) {
        throw internalError('BOARDKIT_RUN_NOT_IN_PROGRESS', sessionId);
      }
      const taken = entry.run.sendMessage(message);
      entry.state = { ...entry.state, messages: [...entry.state.messages, { after: entry.state.computed, message }] };
      const row = store.sessions.getAny(sessionId);
      store.sessions.setRun(sessionId, entry.state, row?.nextStepAt ?? clock.now());
      return taken;
    },
    completedRounds: (sessionId) => live.get(sessionId)?.run.completedRounds ?? 0,
    finish(sessionId, decide) {
      const entry = live.get(sessionId);
      if (entry === undefined) {
        return false;
      }
      entry.timer?.cancel();
      live.delete(sessionId);
      store.transaction(() => {
        let step = entry.pending;
        if (step === undefined) {
          publishRunBegun(services, store.sessions.getAny(sessionId) ?? missing(sessionId));
          step = entry.run.nextStep();
        }
        // Every step still to come is published now, in order, as its timer would have; the run's own
        // end (its memo, or a failure its markers asked for) becomes the decision the caller chose.
        for (; step !== undefined; step = entry.run.nextStep()) {
          const row = store.sessions.getAny(sessionId) ?? missing(sessionId);
          const final = step.kind === 'decided' || step.kind === 'failed' ? decide(step) : step;
          publishStep(services, row, final, entry.run.currentRound);
          if (final.kind === 'decided') {
            break;
          }
        }
        store.sessions.setRun(sessionId, null, null);
      });
      changes.notify(sessionId);
      return true;
    },
    cancel(sessionId) {
      const entry = live.get(sessionId);
      if (entry === undefined) {
        return undefined;
      }
      entry.timer?.cancel();
      live.delete(sessionId);
      store.sessions.setRun(sessionId, null, null);
      return entry.run.cancel();
    },
    resumeAll() {
      for (const row of store.sessions.withRuns()) {
        // A run begun since the store was opened (a seeded session) is already driven.
        if (live.has(row.id)) {
          continue;
        }
        const state = row.run as RunState;
        if (!isActive(row.session.status)) {
          store.sessions.setRun(row.id, null, null);
          continue;
        }
        const { run, pending } = replay(state);
        // Nothing computed yet is a board still to convene; otherwise the pending step is due.
        if (pending === undefined && state.computed > 0) {
          store.sessions.setRun(row.id, null, null);
          continue;
        }
        const entry: LiveRun = { state, run, pending, timer: undefined };
        live.set(row.id, entry);
        schedule(row.id, entry, row.nextStepAt ?? clock.now());
      }
    },
    stopAll() {
      for (const entry of live.values()) {
        entry.timer?.cancel();
      }
      live.clear();
    },
  };
}
