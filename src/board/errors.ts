/**
 * The two ways the simulator refuses work, typed so that the server maps them onto the problem catalogue
 * (seed "Errors") without reading messages: bad input is `400 invalid-request`, a run that can no longer
 * take what was asked is `409 conflict`.
 * @module
 */

export type BoardInputErrorCode =
  'unknown_mode' | 'unknown_synth' | 'lineup_size' | 'duplicate_synth' | 'missing_synth_id' | 'rounds_out_of_range';

/** The request names something the board cannot seat or run. Maps to `400 invalid-request`. */
export class BoardInputError extends Error {
  override readonly name = 'BoardInputError';

  constructor(
    readonly code: BoardInputErrorCode,
    /** A JSON Pointer (RFC 6901) into the request body, for the problem's `errors[].pointer`. */
    readonly pointer: string,
    detail: string,
  ) {
    super(detail);
  }
}

export type BoardStateErrorCode =
  'run_ended' | 'memo_in_progress' | 'not_decided' | 'nothing_recorded' | 'not_on_board';

/** The run cannot take the operation in its current state. Maps to `409 conflict`. */
export class BoardStateError extends Error {
  override readonly name = 'BoardStateError';

  constructor(
    readonly code: BoardStateErrorCode,
    detail: string,
  ) {
    super(detail);
  }
}
