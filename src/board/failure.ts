/**
 * Failures on purpose. A run fails only when its inputs carry a marker, so a client or a test can drive
 * `session.failed` (seed "Event types and data": a session errored mid-run, `upstream_error` is one code)
 * without anything random about it.
 *
 * Markers, written anywhere in a session's title, context or question, or in a continue's prompt:
 *
 * | marker | effect |
 * |---|---|
 * | `[simulate:upstream_error]` | the run fails with `upstream_error` after the first message of its second round (its only round when it runs one) |
 * | `[simulate:upstream_error@N]` | the same in round N (numbered as the session numbers rounds); no failure when the run does not reach round N |
 * | `[simulate:model_timeout]`, `[simulate:content_policy]` | the same, with those error codes |
 *
 * The Synths never quote a marker: it is removed from the text they read.
 * @module
 */
import type { SessionError } from './types.js';

const failureMessages: Readonly<Record<string, string>> = {
  upstream_error: 'The model provider did not answer within 120 seconds in round {round}; no further rounds were run.',
  model_timeout: 'A Synth did not finish its turn within the time limit in round {round}; the run was stopped.',
  content_policy: 'A contribution in round {round} was withheld by the content policy; the run was stopped.',
};

/** The error codes a marker can ask for. */
export const simulatedErrorCodes = Object.keys(failureMessages);

const markerPattern = /\[simulate:([a-z_]+)(?:@(\d+))?\]/g;

export interface SimulatedFailure {
  code: string;
  /** The round to fail in, as the session numbers rounds; `undefined` for the run's second round. */
  round: number | undefined;
}

/** The first known failure marker in the texts, if any. */
export function failureIn(...texts: Array<string | null | undefined>): SimulatedFailure | undefined {
  for (const text of texts) {
    for (const [, code = '', round] of (text ?? '').matchAll(markerPattern)) {
      if (Object.hasOwn(failureMessages, code)) {
        return { code, round: round === undefined ? undefined : Number(round) };
      }
    }
  }
  return undefined;
}

/** The round a run from `firstRound` to `lastRound` fails in, or `undefined` when it does not. */
export function failureRound(failure: SimulatedFailure, firstRound: number, lastRound: number): number | undefined {
  const round = failure.round ?? Math.min(firstRound + 1, lastRound);
  return round >= firstRound && round <= lastRound ? round : undefined;
}

export function sessionErrorOf(failure: SimulatedFailure, round: number): SessionError {
  const template = failureMessages[failure.code] ?? failureMessages['upstream_error'] ?? '';
  return { error_code: failure.code, error_message: template.replace('{round}', String(round)) };
}

/** The text without markers, as the Synths read it. */
export function withoutMarkers(text: string): string {
  return text
    .replace(markerPattern, '')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
