/**
 * Asynchronous outcome generation (seed "Endpoints": `POST …/outcomes` generates an action plan, report
 * or memo and triggers `outcomes.ready`). A requested outcome is `pending` until its simulated writing
 * time has passed on the server clock; then the board simulator writes the document from the session's
 * transcript, the outcome becomes `ready` and the event fires. Pending outcomes are recorded with their
 * due time, so a restart finishes them.
 * @module
 */
import { composeOutcome } from '../../../board/outcomes.js';
import { isoAt } from '../../core/clock.js';
import type { ClockTimer, OutcomeGeneration, Services } from '../../ports/services.js';
import { transcriptOf } from './resource.js';

/** Simulated time to write an outcome document (designed). */
export const outcomeWritingMs = 5_000;

/** What an outcome costs: two Synth-rounds of the session's model class (designed: 10 standard, 30 premium). */
export const outcomeSynthRounds = 2;

export function outcomeGeneration(services: Services, onError: (error: unknown) => void): OutcomeGeneration {
  const { store, clock, webhooks } = services;
  const timers = new Map<string, ClockTimer>();

  function finish(outcomeId: string): void {
    store.transaction(() => {
      const stored = store.outcomes.get(outcomeId);
      const row = stored === undefined ? undefined : store.sessions.getAny(stored.parentId);
      if (stored === undefined || row === undefined || stored.record.status === 'ready') {
        return;
      }
      const now = clock.now();
      const outcome = {
        ...stored.record,
        status: 'ready' as const,
        content: composeOutcome(stored.record.format, transcriptOf(services, row)),
        ready_at: isoAt(now),
      };
      store.outcomes.markReady(outcome);
      const workspace = store.workspaces.get(row.workspaceId);
      if (workspace !== undefined) {
        webhooks.emit(workspace, 'outcomes.ready', {
          session_id: row.id,
          format: outcome.format,
          outcome_id: outcome.id,
        });
      }
    });
  }

  function schedule(outcomeId: string, dueAt: number): void {
    const timer = clock.setTimer(Math.max(0, dueAt - clock.now()), () => {
      timers.delete(outcomeId);
      try {
        finish(outcomeId);
      } catch (error) {
        onError(error);
      }
    });
    timers.set(outcomeId, timer);
  }

  return {
    schedule,
    resumeAll() {
      store.outcomes.pending().forEach(({ id, readyDueAt }) => schedule(id, readyDueAt));
    },
    stopAll() {
      timers.forEach((timer) => timer.cancel());
      timers.clear();
    },
  };
}
