/**
 * The board simulator: a deterministic stand-in for the service's model work, with no HTTP, storage or
 * clock. The reference server drives it: it plans starts, runs debates step by step, writes memos,
 * summaries, outcome documents and exports, and answers chats and consult turns, all from the contract's
 * catalogue of Synths and modes.
 * @module
 */
export {
  boardCatalog,
  catalogOf,
  defaultModeSlug,
  requireLineup,
  requireMode,
  requireSynth,
  type BoardCatalog,
} from './catalog.js';
export { asksForDocument, chatReply, consultTurn, type ChatInput, type ConsultTurnInput } from './chat.js';
export { baseCreditsPerSynthRound, creditsPerSynthRound, estimateCredits, modelClassMultiplier } from './credits.js';
export { createRun, type BoardRun, type BoardStep, type RunInput } from './debate.js';
export { BoardInputError, BoardStateError, type BoardInputErrorCode, type BoardStateErrorCode } from './errors.js';
export { exportFilename, exportSession, type ExportFile } from './export.js';
export { failureIn, simulatedErrorCodes, withoutMarkers } from './failure.js';
export { composeOutcome } from './outcomes.js';
export { renderPdf, type PdfLine } from './pdf.js';
export { isQuestionStart, planOf, planSession, resolveStart, type ResolvedStart } from './plan.js';
export { stampSummary, type BoardSummary } from './summary.js';
export type { SessionTranscript } from './transcript.js';
