/**
 * `POST /v1/synths/chat`: one message to one Synth, answered in its voice by the board simulator
 * (seed "Endpoints": 1-on-1 chat with a specific Synth). A conversation keeps its turns; each turn is
 * billed as one Synth-round at the standard rate.
 * @module
 */
import { boardCatalog } from '../../../board/catalog.js';
import { chatReply } from '../../../board/chat.js';
import { creditsPerSynthRound } from '../../../board/credits.js';
import { isoAt } from '../../core/clock.js';
import type { Handler } from '../../ports/handlers.js';
import type { ConversationRecord } from '../../ports/records.js';
import { newId } from '../../core/ids.js';
import { ProblemError, notFound } from '../../core/problems.js';
import { spend } from '../../domain/sessions/credits.js';
import { requireSession, transcriptOf } from '../../domain/sessions/resource.js';

export const chatWithSynth: Handler<'chatWithSynth'> = ({ body }, context) => {
  const { services, workspace } = context;
  const { store, clock } = services;
  const synth = boardCatalog().findSynth(body.synth);
  if (synth === undefined) {
    throw notFound(`Synth ${body.synth}`);
  }
  const session = body.session_id === undefined ? undefined : requireSession(context, body.session_id);
  const conversationId = body.conversation_id;
  let conversation: ConversationRecord | undefined;
  if (conversationId !== undefined) {
    const stored = store.conversations.get(conversationId);
    if (stored === undefined || stored.parentId !== workspace.id) {
      throw notFound(`Conversation ${conversationId}`);
    }
    if (stored.record.synth !== synth.slug) {
      throw new ProblemError(
        409,
        `Conversation ${conversationId} is held with ${stored.record.synth}, not ${synth.slug}.`,
      );
    }
    conversation = stored.record;
  }
  const cost = creditsPerSynthRound('standard');
  const now = clock.now();
  const id = conversationId ?? newId('cnv');
  const turn = (conversation?.turns.filter((entry) => entry.role === 'user').length ?? 0) + 1;
  const reply = chatReply({
    seed: `${id}:${turn}`,
    synth: synth.slug,
    message: body.message,
    ...(session === undefined ? {} : { transcript: transcriptOf(services, session) }),
  });
  store.transaction(() => {
    spend(services, {
      workspaceId: workspace.id,
      amount: cost,
      kind: 'chat',
      sessionId: session?.id ?? null,
      description: `1-on-1 chat with ${synth.name} (${synth.slug})`,
      what: 'A chat turn',
    });
    const turns = [
      ...(conversation?.turns ?? []),
      { role: 'user' as const, content: body.message, at: isoAt(now) },
      { role: 'synth' as const, content: reply, at: isoAt(now) },
    ];
    if (conversation === undefined) {
      store.conversations.insert(id, workspace.id, { synth: synth.slug, session_id: session?.id ?? null, turns }, now);
    } else {
      store.conversations.update(id, { ...conversation, turns });
    }
  });
  return {
    status: 200,
    body: { conversation_id: id, synth: synth.slug, reply, credits_charged: cost, created_at: isoAt(now) },
  };
};
