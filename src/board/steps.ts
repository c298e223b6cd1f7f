/**
 * The shapes of a run: what starts it, the steps it yields and the handle the server drives it with.
 * @module
 */
import type { BoardSummary } from './summary.js';
import type { Memo, RoundCompleteEventData, SendMessageRequest, SessionError, SynthMessageEventData } from './types.js';

export interface RunInput {
  /** Seeds every draw: the session id. */
  seed: string;
  /** A mode slug or alias. */
  mode: string;
  /** The lineup, 2 to 12 distinct Synth slugs. */
  synths: readonly string[];
  title?: string | null;
  context?: string | null;
  question?: string | null;
  /** The number of the run's first round: 1 for a start or a fork, on from the last round for a follow-up. */
  firstRound?: number;
  /** How many rounds the run debates, 1 to 10. */
  rounds: number;
  /** The decision the board debates on from: a continue (with its prompt) or a reconvene. */
  earlier?: { kind: 'continued' | 'reconvened'; memo: Memo; prompt?: string | null };
}

export type BoardStep =
  | { kind: 'synth.message'; simulatedMs: number; data: SynthMessageEventData; sentBack: boolean }
  | { kind: 'round.complete'; simulatedMs: number; data: RoundCompleteEventData; summary: BoardSummary }
  | { kind: 'decided'; simulatedMs: number; round: number; memo: Memo; synthesis: string; summary: BoardSummary }
  | { kind: 'failed'; simulatedMs: number; round: number; error: SessionError; summary: BoardSummary };

export interface BoardRun {
  readonly firstRound: number;
  readonly lastRound: number;
  /** The round in progress: the one a message sent now is taken up by (`current_round`). */
  readonly currentRound: number;
  /** Rounds that have ended with `round.complete`: what a cancellation charges for. */
  readonly completedRounds: number;
  readonly ended: boolean;
  /** The next step, or `undefined` once the run has ended. */
  nextStep(): BoardStep | undefined;
  /**
   * Takes a message into the round in progress: the Synths still to speak read it and each Synth in
   * `send_back` speaks again on it before the round closes (schema `SendMessageRequest`).
   */
  sendMessage(message: SendMessageRequest): { round: number };
  /** Stops the run (cancellation) and returns the summary as it stands, for `summary.final`. */
  cancel(): BoardSummary;
}
