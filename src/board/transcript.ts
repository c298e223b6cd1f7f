/**
 * What a session's documents are written from: the session as the server holds it and the events its run
 * published. Outcome documents and exports are functions of this record alone, so the same session always
 * renders the same files.
 * @module
 */
import { boardCatalog } from './catalog.js';
import type { Memo, RoundCompleteEventData, Session, Synth, SynthMessageEventData } from './types.js';

export interface SessionTranscript {
  session: Pick<Session, 'id' | 'mode' | 'status' | 'synths' | 'rounds' | 'created_at'> &
    Partial<Pick<Session, 'title' | 'question' | 'context' | 'completed_at'>>;
  /** Every `synth.message` in the order published. */
  messages: readonly SynthMessageEventData[];
  /** Every `round.complete` in the order published. */
  rounds: readonly RoundCompleteEventData[];
  /** Messages the requester sent into the session (`SessionMessage`), with the round that took each up. */
  requests?: ReadonlyArray<{ round: number; content: string; send_back?: readonly string[] }>;
  synthesis: string | null;
  memo: Memo | null;
}

export interface TranscriptRound {
  round: number;
  messages: SynthMessageEventData[];
  requests: Array<{ content: string; send_back: readonly string[] }>;
  synthesisPreview: string | null;
}

/** The heading of a session's documents: its title, else its question, else its id. */
export function titleOf(transcript: SessionTranscript): string {
  return transcript.session.title ?? transcript.session.question ?? `Session ${transcript.session.id}`;
}

/** A Synth of the lineup with its catalogue entry; a slug the library no longer has keeps its slug. */
export function memberOf(slug: string): Synth {
  return boardCatalog().findSynth(slug) ?? { slug, name: slug, role: 'Synth', voice: '' };
}

/** "Clara Voss (Chief Financial Officer)". */
export function nameAndRole(slug: string): string {
  const synth = memberOf(slug);
  return `${synth.name} (${synth.role})`;
}

/** The mode's display name, with the requested alias when the session named one ("The Arena (stress test)"). */
export function modeLabel(requested: string): string {
  const mode = boardCatalog().findMode(requested);
  if (mode === undefined) {
    return requested;
  }
  return mode.slug === requested ? mode.name : `${mode.name} (${requested.replace(/_/g, ' ')})`;
}

/** The calendar date (UTC) of an RFC 3339 timestamp. */
export function dateOf(timestamp: string): string {
  return timestamp.slice(0, 10);
}

/** The transcript grouped by round, in round order. */
export function roundsOf(transcript: SessionTranscript): TranscriptRound[] {
  const numbers = new Set([
    ...transcript.messages.map((message) => message.round),
    ...transcript.rounds.map((round) => round.round),
    ...(transcript.requests ?? []).map((request) => request.round),
  ]);
  return [...numbers]
    .sort((a, b) => a - b)
    .map((round) => ({
      round,
      messages: transcript.messages.filter((message) => message.round === round),
      requests: (transcript.requests ?? [])
        .filter((request) => request.round === round)
        .map((request) => ({ content: request.content, send_back: request.send_back ?? [] })),
      synthesisPreview: transcript.rounds.find((entry) => entry.round === round)?.synthesis_preview ?? null,
    }));
}
