/**
 * What a start says it is estimated at. `estimated_cost_credits` is optional both in the start answer (A1
 * carries none) and in the session (not in `Session.required`); the estimate of the plan the session kept
 * (`GET /v1/sessions/{id}/plan`) is required, so it is always asked for.
 * @module
 */
import { type Exchange, jsonOf } from './exchange.js';
import type { HttpClient } from './http.js';
import type { SessionBody } from './sessions.js';

export interface StartEstimates {
  /** Every estimate the target gave, in the order session, start answer, kept plan. */
  estimates: unknown[];
  /** The kept plan's answer, as evidence. */
  kept: Exchange;
}

export async function startEstimates(
  http: HttpClient,
  start: Exchange,
  session: SessionBody,
  id: string,
): Promise<StartEstimates> {
  const kept = await http.get(`/v1/sessions/${id}/plan`);
  const answered = (jsonOf(start) as { estimated_cost_credits?: unknown } | undefined)?.estimated_cost_credits;
  const planned =
    kept.response?.status === 200
      ? (jsonOf(kept) as { estimate?: { credits?: unknown } } | undefined)?.estimate?.credits
      : undefined;
  return {
    estimates: [session['estimated_cost_credits'], answered, planned].filter((estimate) => estimate !== undefined),
    kept,
  };
}
