/**
 * Sessions as the API shows them, and the lookups every session operation starts with.
 * @module
 */
import type { ResolvedStart } from '../../../board/plan.js';
import type { SessionTranscript } from '../../../board/transcript.js';
import type { SynthMessageEventData, RoundCompleteEventData } from '../../../board/types.js';
import { isoAt } from '../../core/clock.js';
import { notFound } from '../../core/problems.js';
import type { HandlerContext } from '../../ports/handlers.js';
import type { Session, SessionRow, StoredSession } from '../../ports/records.js';
import type { Services } from '../../ports/services.js';

export function sessionUrls(baseUrl: string, id: string): { events_url: string; outcomes_url: string } {
  return { events_url: `${baseUrl}/v1/sessions/${id}/events`, outcomes_url: `${baseUrl}/v1/sessions/${id}/outcomes` };
}

export function toResource(services: Services, session: StoredSession): Session {
  return { ...session, ...sessionUrls(services.baseUrl(), session.id) };
}

/** The caller's session; a missing, deleted or other workspace's session is `404 not-found`. */
export function requireSession(context: HandlerContext, id: string): SessionRow {
  const row = context.services.store.sessions.get(context.workspace.id, id);
  if (row === undefined) {
    throw notFound(`Session ${id}`);
  }
  return row;
}

export interface NewSessionFields {
  id: string;
  start: ResolvedStart;
  keyHint: string;
  metadata: Record<string, string>;
  now: number;
  forkedFrom?: string | null;
  sourceSessionId?: string | null;
  /** The first round of the run: 1, or on from a reconvened session's last round. */
  firstRound?: number;
}

/**
 * A new session as a start, fork or reconvene creates it: `created`, `v4_phase` `queued`, until the run
 * driver convenes its board (or, for a consult session, until its first turn).
 */
export function newSession(fields: NewSessionFields): StoredSession {
  const { start, now } = fields;
  const consult = start.sessionType === 'consult';
  const firstRound = fields.firstRound ?? 1;
  return {
    id: fields.id,
    session_type: start.sessionType,
    mode: start.requestedMode,
    status: 'created',
    v4_phase: 'queued',
    title: start.title,
    context: start.context,
    question: start.question,
    synths: start.synths,
    synth_id: start.synthId,
    rounds: firstRound + start.rounds - 1,
    current_round: firstRound,
    model_class: start.modelClass,
    decision_brief: start.decisionBrief,
    memo: null,
    // A consult session is billed per turn, so it reserves nothing up front.
    estimated_cost_credits: consult ? 0 : start.estimate.credits,
    credits_charged: 0,
    credits_refunded: 0,
    error: null,
    cancellation_reason: null,
    metadata: fields.metadata,
    key_hint: fields.keyHint,
    forked_from: fields.forkedFrom ?? null,
    source_session_id: fields.sourceSessionId ?? null,
    reconvened_into: null,
    created_at: isoAt(now),
    updated_at: isoAt(now),
    completed_at: null,
    archived_at: null,
  };
}

/** What the board's documents are written from: the session, its published events and its messages. */
export function transcriptOf(services: Services, row: SessionRow): SessionTranscript {
  const { streamEvents, messages } = services.store;
  const events = streamEvents.after(row.id, 'events', 0);
  const data = <T>(name: string): T[] =>
    events.filter((event) => event.event === name).map((event) => JSON.parse(event.data) as T);
  return {
    session: row.session,
    messages: data<SynthMessageEventData>('synth.message'),
    rounds: data<RoundCompleteEventData>('round.complete'),
    requests: messages
      .all(row.id)
      .map(({ record }) => ({ round: record.round, content: record.content, send_back: record.send_back })),
    synthesis: row.synthesis,
    memo: row.session.memo ?? null,
  };
}
