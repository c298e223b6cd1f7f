/**
 * Consult turns (seed "What the service does" 6): one message to a consult session's named expert,
 * answered by the board simulator with the expert's reply and any composed document, and billed per
 * turn from the shared pool (seed "What the service does" 8: ledger kind `consult_turn`, source `mcp`).
 * A turn is kept as the session's message and the expert's `synth.message`, so the session's event
 * stream and exports show the conversation. The first turn begins the session (`created` → `running`).
 * @module
 */
import { consultTurn } from '../../../board/chat.js';
import type { ConsultTurnOutput } from '../../../board/types.js';
import { isoAt } from '../../core/clock.js';
import { newId } from '../../core/ids.js';
import { ProblemError, notFound } from '../../core/problems.js';
import type { StoredSession, Workspace } from '../../ports/records.js';
import type { Services } from '../../ports/services.js';
import { spend } from './credits.js';
import { transition } from './lifecycle.js';

/** The tool's input (schema `ConsultTurnInput`), already validated. */
export interface ConsultTurnRequest {
  session_id: string;
  message: string;
}

/** Takes one turn of the caller's consult session; refusals are problems (404, 409, 402). */
export function takeConsultTurn(
  services: Services,
  workspace: Workspace,
  request: ConsultTurnRequest,
): ConsultTurnOutput {
  const { store, clock } = services;
  const output = store.transaction(() => {
    const row = store.sessions.get(workspace.id, request.session_id);
    if (row === undefined) {
      throw notFound(`Session ${request.session_id}`);
    }
    const { session } = row;
    if (session.session_type !== 'consult' || session.synth_id === null || session.synth_id === undefined) {
      throw new ProblemError(
        409,
        `Session ${row.id} is a boardroom session; only a consult session takes consult turns.`,
      );
    }
    if (session.status !== 'created' && session.status !== 'running') {
      throw new ProblemError(
        409,
        `A ${session.status} consult session takes no turns; only a created or running one does.`,
      );
    }
    const now = clock.now();
    const turn = store.messages.all(row.id).length + 1;
    const taken = consultTurn({
      sessionId: row.id,
      synth: session.synth_id,
      question: session.question ?? session.title ?? request.message,
      message: request.message,
      turn,
      modelClass: session.model_class === 'premium' ? 'premium' : 'standard',
    });
    spend(services, {
      workspaceId: workspace.id,
      amount: taken.credits_charged,
      kind: 'consult_turn',
      source: 'mcp',
      sessionId: row.id,
      description: `Consult turn ${turn} with ${session.synth_id}`,
      what: 'A consult turn',
    });
    const messageId = newId('msg');
    const at = isoAt(now);
    store.messages.insert(
      messageId,
      row.id,
      { id: messageId, session_id: row.id, content: request.message, send_back: [], round: turn, created_at: at },
      now,
    );
    store.streamEvents.append(
      row.id,
      'events',
      'synth.message',
      { synth: session.synth_id, round: turn, content: taken.reply },
      now,
    );
    const updated: StoredSession = {
      ...session,
      status: session.status === 'created' ? transition(session.status, 'running', 'begun') : session.status,
      v4_phase: 'debating',
      // Billed per turn: each turn is spent at once, so a cancellation has nothing to refund.
      estimated_cost_credits: session.estimated_cost_credits + taken.credits_charged,
      credits_charged: session.credits_charged + taken.credits_charged,
      updated_at: at,
    };
    store.sessions.update(updated);
    return taken;
  });
  services.changes.notify(output.session_id);
  return output;
}
