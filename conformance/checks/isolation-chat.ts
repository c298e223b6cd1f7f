/**
 * Workspace isolation (seed "Authentication" 3) of the 1-on-1 chat with a Synth: a conversation is the
 * workspace's, and so is a session the chat draws on. Another workspace that names either is answered 404
 * (the contract's answer to an unknown conversation or session) and learns nothing of it. Consult turns,
 * the other conversation with an expert, are isolated under CONS-004.
 * @module
 */
import { jsonOf } from '../harness/exchange.js';
import { discard } from '../harness/sessions.js';
import { expectHidden, keyB, ownedSession } from './isolation.js';
import { statusOf } from './problem-shape.js';
import { checksOf } from './define.js';

const check = checksOf('isolation');

export const chat = check('chat', ['ISO-011'], {
  title: "Another workspace's chat conversation and session cannot be drawn on",
  preconditions: ['live', 'second-key'],
  async run(ctx) {
    const [synth = 'cfo'] = ctx.target.synths;
    const first = await ctx.http.post('/v1/synths/chat', {
      synth,
      message: 'Which margin would you defend in a price war?',
    });
    const { conversation_id: conversation, reply } = (jsonOf(first) ?? {}) as {
      conversation_id?: unknown;
      reply?: unknown;
    };
    if (statusOf(first) !== 200 || typeof conversation !== 'string' || typeof reply !== 'string') {
      ctx.skip('ISO-011', `the chat answered ${statusOf(first)} without a conversation_id and a reply to draw on`);
      return;
    }
    expectHidden(
      ctx,
      'ISO-011',
      await keyB(ctx).post('/v1/synths/chat', { synth, message: 'Go on.', conversation_id: conversation }),
      reply,
      "POST /v1/synths/chat with another workspace's conversation_id",
    );
    const owned = await ownedSession(ctx, 'chat');
    expectHidden(
      ctx,
      'ISO-011',
      await keyB(ctx).post('/v1/synths/chat', { synth, message: 'What did the board say?', session_id: owned.id }),
      owned.title,
      "POST /v1/synths/chat with another workspace's session_id",
    );
    await discard(ctx.http, owned.id);
  },
});

export const isolationChatChecks = [chat];
