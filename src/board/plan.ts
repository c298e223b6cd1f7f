/**
 * Planning a start (seed "Endpoints": `POST /sessions/plan` previews the staffed board and a credit
 * estimate; `/sessions/{id}/plan` is the pre-flight plan): a start request, variant A (a lineup) or B (a
 * question, for a board or a consult), resolved into the board, rounds and model class it would run, and
 * priced by the credit rule. The defaults are the contract's (schemas `Plan`, `StartSessionRequestA`):
 * mode `boardroom`, the mode's `default_rounds`, model class `standard`; a consult is one Synth for one round.
 * @module
 */
import { defaultModeSlug, requireLineup, requireMode, requireSynth } from './catalog.js';
import { estimateCredits } from './credits.js';
import { BoardInputError } from './errors.js';
import { consultSeat, defaultBoard, namedBoard, staffBoard } from './staffing.js';
import type {
  CreditEstimate,
  DecisionBrief,
  Mode,
  ModelClass,
  Plan,
  SessionType,
  StartSessionRequest,
  StartSessionRequestA,
  StartSessionRequestB,
} from './types.js';

/** A start request resolved into what the session runs with. */
export interface ResolvedStart {
  sessionType: SessionType;
  /** The mode as the request named it (slug or alias), or `boardroom`; sessions and plans echo it. */
  requestedMode: string;
  mode: Mode;
  title: string | null;
  context: string | null;
  question: string | null;
  /** The named expert of a consult session; `null` for a board. */
  synthId: string | null;
  /** The lineup (the named expert alone for a consult). */
  synths: string[];
  rounds: number;
  modelClass: ModelClass;
  decisionBrief: DecisionBrief;
  estimate: CreditEstimate;
}

export function isQuestionStart(request: StartSessionRequest): request is StartSessionRequestB {
  return 'question' in request && typeof request.question === 'string';
}

function resolveLineupStart(request: StartSessionRequestA): ResolvedStart {
  const mode = requireMode(request.mode);
  const named = request.synths !== undefined;
  const synths = named
    ? requireLineup(request.synths ?? [])
    : mode.default_lineup.map((slug) => requireSynth(slug, '/mode'));
  const rounds = request.rounds ?? mode.default_rounds;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10) {
    throw new BoardInputError('rounds_out_of_range', '/rounds', 'A session runs 1 to 10 rounds.');
  }
  const modelClass = request.model_class ?? 'standard';
  return {
    sessionType: 'boardroom',
    requestedMode: request.mode,
    mode,
    title: request.title ?? null,
    context: request.context ?? null,
    question: null,
    synthId: null,
    synths: synths.map((synth) => synth.slug),
    rounds,
    modelClass,
    decisionBrief: {
      question: null,
      staffed_by: named ? 'user' : 'service',
      lineup: named ? namedBoard(synths) : defaultBoard(mode, synths),
    },
    estimate: estimateCredits(synths.length, rounds, modelClass),
  };
}

function resolveQuestionStart(request: StartSessionRequestB): ResolvedStart {
  const requestedMode = request.mode ?? defaultModeSlug;
  const mode = requireMode(requestedMode);
  const base = {
    requestedMode,
    mode,
    title: null,
    context: null,
    question: request.question,
    modelClass: 'standard' as const,
  };
  if (request.session_type === 'consult') {
    if (request.synth_id === undefined) {
      throw new BoardInputError('missing_synth_id', '/synth_id', 'A consult session names its expert in synth_id.');
    }
    const expert = requireSynth(request.synth_id, '/synth_id');
    return {
      ...base,
      sessionType: 'consult',
      synthId: expert.slug,
      synths: [expert.slug],
      rounds: 1,
      decisionBrief: { question: request.question, staffed_by: 'user', lineup: [consultSeat(expert)] },
      // Billed per turn: the estimate is the price of one turn (schema `CreditEstimate`).
      estimate: estimateCredits(1, 1, 'standard'),
    };
  }
  const lineup = staffBoard(request.question, mode);
  return {
    ...base,
    sessionType: 'boardroom',
    synthId: null,
    synths: lineup.map((seat) => seat.synth),
    rounds: mode.default_rounds,
    decisionBrief: { question: request.question, staffed_by: 'service', lineup },
    estimate: estimateCredits(lineup.length, mode.default_rounds, 'standard'),
  };
}

/** Resolves a start request; unknown modes and Synths are `BoardInputError`s. */
export function resolveStart(request: StartSessionRequest): ResolvedStart {
  return isQuestionStart(request) ? resolveQuestionStart(request) : resolveLineupStart(request);
}

/** The plan of a resolved start against a credit balance; a plan never spends credits. */
export function planOf(start: ResolvedStart, balanceCredits: number): Plan {
  return {
    mode: start.requestedMode,
    session_type: start.sessionType,
    rounds: start.rounds,
    model_class: start.modelClass,
    decision_brief: start.decisionBrief,
    estimate: start.estimate,
    balance_credits: balanceCredits,
    sufficient_credits: balanceCredits >= start.estimate.credits,
  };
}

/** The plan of a start request (schema `Plan`). */
export function planSession(request: StartSessionRequest, balanceCredits: number): Plan {
  return planOf(resolveStart(request), balanceCredits);
}
