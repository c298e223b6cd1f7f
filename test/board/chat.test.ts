import { describe, expect, test } from 'vitest';
import { asksForDocument, chatReply, consultTurn } from '../../src/board/chat.js';
import { creditsPerSynthRound } from '../../src/board/credits.js';
import { BoardInputError } from '../../src/board/errors.js';
import { boardCatalog } from '../../src/board/catalog.js';
import { expectValid, finishedTranscript } from './support.js';

const transcript = finishedTranscript();
const question = 'How should we structure the EU subsidiary for VAT?';

describe('1-on-1 chat', () => {
  test('replies in the Synth voice, the same for the same seed, as a valid SynthChatReply', () => {
    const input = {
      seed: 'cnv_01JD8QZ5H7K9M1P3R5T7V9X1Z3/1',
      synth: 'cfo',
      message: 'What monthly churn did you assume?',
    };
    const reply = chatReply(input);
    expect(chatReply(input)).toBe(reply);
    expect(reply).toMatch(/unit economics|payback|runway/);
    expectValid('SynthChatReply', {
      conversation_id: 'cnv_01JD8QZ5H7K9M1P3R5T7V9X1Z3',
      synth: 'cfo',
      reply,
      credits_charged: creditsPerSynthRound('standard'),
      created_at: '2026-11-20T10:02:17.448Z',
    });
    const replies = new Set(
      Array.from({ length: 8 }, (_, turn) => chatReply({ ...input, seed: `cnv_01JD8QZ5H7K9M1P3R5T7V9X1Z3/${turn}` })),
    );
    expect(replies.size).toBeGreaterThan(1);
  });

  test('every Synth of the library can answer', () => {
    for (const synth of boardCatalog().synths) {
      const reply = chatReply({ seed: 's', synth: synth.slug, message: 'Should we expand to Canada next year?' });
      expect(reply).not.toMatch(/\{\w+\}|undefined/);
      expect(reply.length).toBeGreaterThan(40);
    }
  });

  test('draws on a session: its own last word and the verdict, or its dissent', () => {
    const memo = transcript.memo;
    if (memo === null) {
      throw new Error('the run did not decide');
    }
    const onBoard = chatReply({
      seed: 'c',
      synth: 'cfo',
      message: 'Why?',
      transcript: { ...transcript, memo: { ...memo, dissent: [] } },
    });
    expect(onBoard).toContain('In the debate on EU launch of the Pro plan I ended on this:');
    expect(onBoard).toContain(memo.verdict);
    const dissenting = {
      ...transcript,
      memo: { ...memo, dissent: [{ synth: 'cfo', position: 'The payback case is unproven.' }] },
    };
    expect(chatReply({ seed: 'c', synth: 'cfo', message: 'Why?', transcript: dissenting })).toContain(
      'I dissented from the verdict, and still do: the payback case is unproven.',
    );
    expect(chatReply({ seed: 'c', synth: 'futurist', message: 'Why?', transcript })).not.toContain('I ended on this');
  });

  test('an unknown Synth is a typed error', () => {
    expect(() => chatReply({ seed: 's', synth: 'oracle', message: 'Hi' })).toThrow(BoardInputError);
  });
});

describe('consult turns', () => {
  const sessionId = 'ses_01JD8P6W8Y0A2C4E6G8J0L2N4Q';

  test('a question gets a reply without a document, priced as one turn', () => {
    const message =
      'We expect EUR 2.4M of EU revenue next year. Should the subsidiary be in Ireland or the Netherlands?';
    const output = consultTurn({ sessionId, synth: 'tax_advisor', question, message, turn: 1 });
    expectValid('ConsultTurnOutput', output);
    expect(output).toMatchObject({ session_id: sessionId, turn: 1, document: null, credits_charged: 5 });
    expect(
      consultTurn({ sessionId, synth: 'tax_advisor', question, message, turn: 1, modelClass: 'premium' })
        .credits_charged,
    ).toBe(15);
    expect(consultTurn({ sessionId, synth: 'tax_advisor', question, message, turn: 1 })).toEqual(output);
  });

  test('a request for a draft composes a Markdown document in the expert voice', () => {
    const output = consultTurn({
      sessionId,
      synth: 'tax_advisor',
      question,
      message: 'Draft the memo for our accountants with the structure you recommend.',
      turn: 2,
    });
    expectValid('ConsultTurnOutput', output);
    expect(output.document).toMatchObject({ title: `Memo: ${question.slice(0, -1)}`, format: 'markdown' });
    expect(output.document?.content).toMatch(/^# Memo: How should we structure/);
    expect(output.document?.content).toContain('**From:** Oliver Grant, Tax Advisor');
    expect(output.document?.content).toContain('## Open points');
    expect(output.reply).toMatch(/memo you asked for/);
  });

  test('document titles stay within 200 characters', () => {
    const long = `${'Should we restructure the group '.repeat(12)}?`;
    const output = consultTurn({ sessionId, synth: 'cfo', question: long, message: 'Write a checklist', turn: 3 });
    expectValid('ConsultTurnOutput', output);
    expect(output.document?.title.startsWith('Checklist: ')).toBe(true);
  });

  test('knows when a message asks for a document', () => {
    expect(asksForDocument('Draft the memo for our accountants.')).toBe(true);
    expect(asksForDocument('Can you write it up for the board?')).toBe(true);
    expect(asksForDocument('Should we incorporate in Ireland?')).toBe(false);
  });
});
