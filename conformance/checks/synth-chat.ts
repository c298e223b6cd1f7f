/**
 * 1-on-1 chat with a Synth (seed "What the service does" 4, 8; "Endpoints"): a reply from the Synth asked,
 * a conversation continued by its id, and the turn's cost in the ledger.
 * @module
 */
import { newEntries, readCredits } from '../harness/credits.js';
import { jsonOf } from '../harness/exchange.js';
import { ownWorkspaceOrShared } from '../harness/key-control.js';
import { expectProblem, statusOf } from './problem-shape.js';
import { checksOf } from './define.js';

const check = checksOf('synth-chat');

interface Reply {
  conversation_id?: unknown;
  synth?: unknown;
  reply?: unknown;
  credits_charged?: unknown;
}

export const conversation = check('conversation', ['CHAT-001', 'CHAT-002', 'CHAT-003'], {
  title: 'A Synth answers 1-on-1, the conversation goes on, and each turn is billed',
  preconditions: ['live'],
  async run(ctx) {
    // A workspace of its own when the test control provides one, so that other checks' ledger entries
    // cannot push the turn's out of the recent usage.
    const http = await ownWorkspaceOrShared(ctx);
    const [synth = 'cfo', other = 'skeptic'] = ctx.target.synths;
    const before = await readCredits(http);
    const first = await http.post('/v1/synths/chat', {
      synth,
      message: 'What payback period would you accept for a 5% price rise?',
    });
    const reply = (jsonOf(first) ?? {}) as Reply;
    ctx.expect(
      'CHAT-001',
      statusOf(first) === 200 && reply.synth === synth && typeof reply.reply === 'string' && reply.reply !== '',
      {
        kind: 'state',
        message: `the chat answered ${statusOf(first)} without a reply from ${synth}`,
        expected: { status: 200, synth, reply: 'a string' },
        got: jsonOf(first) ?? statusOf(first),
        evidence: first,
      },
      `${synth} replied`,
    );
    if (typeof reply.conversation_id !== 'string') {
      ctx.skip('CHAT-002', 'the first reply carries no conversation_id');
    } else {
      const next = await http.post('/v1/synths/chat', {
        synth,
        message: 'And if churn doubles?',
        conversation_id: reply.conversation_id,
      });
      const again = (jsonOf(next) ?? {}) as Reply;
      ctx.expect(
        'CHAT-002',
        statusOf(next) === 200 && again.conversation_id === reply.conversation_id && again.synth === synth,
        {
          kind: 'state',
          message: 'a message with the conversation_id did not continue the conversation',
          expected: { status: 200, conversation_id: reply.conversation_id, synth },
          got: jsonOf(next) ?? statusOf(next),
          evidence: next,
        },
        `the conversation ${reply.conversation_id} went on`,
      );
      expectProblem(
        ctx,
        'CHAT-002',
        await http.post('/v1/synths/chat', {
          synth: other,
          message: 'Do you agree?',
          conversation_id: reply.conversation_id,
        }),
        409,
        'conflict',
        `the conversation of ${synth} sent to ${other}`,
      );
    }
    const after = await readCredits(http);
    const fresh = newEntries(before, after);
    if (fresh === undefined || !Number.isInteger(reply.credits_charged)) {
      ctx.skip(
        'CHAT-003',
        fresh === undefined
          ? 'more ledger entries than one page arrived meanwhile'
          : 'the reply reports no credits_charged',
      );
      return;
    }
    const chats = fresh.filter((entry) => entry.kind === 'chat');
    ctx.expect(
      'CHAT-003',
      chats.some((entry) => entry.credits === -(reply.credits_charged as number)),
      {
        kind: 'state',
        message: "the turn's credits_charged is not a chat entry of the ledger",
        expected: { kind: 'chat', credits: -(reply.credits_charged as number) },
        got: fresh,
        evidence: [first, after.exchange],
      },
      `the turn's ${String(reply.credits_charged)} credits are a chat entry of the ledger`,
    );
  },
});

export const synthChatChecks = [conversation];
