/**
 * One Synth talking to one person: the 1-on-1 chat (seed "Endpoints": `POST /api/v1/synths/chat`) and the
 * consult session's turns (seed "What the service does" 6: the MCP tool `service.consult.message` returns
 * the expert's reply and any composed document, billed per turn). Replies are in the Synth's voice and
 * deterministic for a seed; a consult turn composes a document when the message asks for one.
 * @module
 */
import { requireSynth } from './catalog.js';
import { creditsPerSynthRound } from './credits.js';
import { personaOf } from './personas.js';
import { createRandom, type Random } from './random.js';
import { excerpt, fill, figuresOf, lastSentence, lowerFirst, squash, subjectOf } from './text.js';
import { titleOf, type SessionTranscript } from './transcript.js';
import type { ConsultDocument, ConsultTurnOutput, ModelClass, Synth } from './types.js';

function claimIn(synth: Synth, subject: string, figures: readonly string[], random: Random): string {
  const claims = personaOf(synth).claims.filter((claim) => figures.length > 0 || !claim.includes('{figure}'));
  return fill(random.pick(claims), { subject, figure: figures.length > 0 ? random.pick(figures) : '' });
}

function openerFor(message: string, synth: Synth, random: Random): string {
  const lens = personaOf(synth).lens;
  const asks = message.trim().endsWith('?');
  return random.pick(
    asks
      ? [
          `Short answer: it turns on ${lens}, so let me be specific.`,
          `From where I sit, the answer depends on ${lens}.`,
        ]
      : ['Noted; that changes less than you might think.', `That matters, and it points straight at ${lens}.`],
  );
}

export interface ChatInput {
  /** Seeds the reply: the conversation id and the turn, for instance. */
  seed: string;
  synth: string;
  message: string;
  /** The session the Synth may draw on (`SynthChatRequest.session_id`). */
  transcript?: SessionTranscript;
}

/** The Synth's reply to one chat turn (`SynthChatReply.reply`); an unknown Synth is a `BoardInputError`. */
export function chatReply(input: ChatInput): string {
  const synth = requireSynth(input.synth, '/synth');
  const random = createRandom(input.seed, 'chat', synth.slug);
  const { transcript } = input;
  const subject = transcript
    ? subjectOf(transcript.session.title, transcript.session.question)
    : subjectOf(null, input.message).replace(/^the question ".*"$/, 'this');
  const sentences = [openerFor(input.message, synth, random)];
  if (transcript !== undefined) {
    const own = transcript.messages.filter((message) => message.synth === synth.slug).at(-1);
    if (own !== undefined) {
      sentences.push(
        `In the debate on ${titleOf(transcript)} I ended on this: "${excerpt(lastSentence(own.content), 160)}"`,
      );
    }
    const dissent = transcript.memo?.dissent.find((entry) => entry.synth === synth.slug);
    if (dissent !== undefined) {
      sentences.push(`I dissented from the verdict, and still do: ${lowerFirst(dissent.position)}`);
    } else if (transcript.memo) {
      sentences.push(
        `The board's verdict, at ${transcript.memo.confidence_0_100}/100 confidence: ${transcript.memo.verdict}`,
      );
    }
  }
  sentences.push(claimIn(synth, subject, figuresOf(input.message), random));
  sentences.push(`The question I would put back to you: ${random.pick(personaOf(synth).questions)}`);
  return sentences.join(' ');
}

const documentRequest = /\b(draft|write|memo|document|outline|checklist|summary|summari[sz]e|brief)\b/i;

/** Whether a consult message asks the expert to compose a document. */
export function asksForDocument(message: string): boolean {
  return documentRequest.test(message);
}

function documentKind(message: string): string {
  const word = /\b(memo|checklist|outline|summary|brief)\b/i.exec(message)?.[1]?.toLowerCase();
  return word === undefined ? 'Memo' : word.charAt(0).toUpperCase() + word.slice(1);
}

function composeDocument(synth: Synth, question: string, message: string, random: Random): ConsultDocument {
  const persona = personaOf(synth);
  const topic = squash(question).replace(/[?.!]+$/, '');
  const subject = subjectOf(null, question);
  const [first, second] = random.shuffle(persona.claims.filter((claim) => !claim.includes('{figure}')));
  const conditions = random.shuffle(persona.conditions);
  const title = `${documentKind(message)}: ${topic}`.slice(0, 200);
  const content = [
    `# ${title}`,
    `**From:** ${synth.name}, ${synth.role}\n**On:** ${squash(question)}`,
    `## Recommendation\n${fill(first ?? persona.claims[0] ?? '', { subject })} Proceed only once ${lowerFirst(conditions[0] ?? '')}.`,
    `## Why\n- ${fill(second ?? first ?? '', { subject })}\n- It is weighed on ${persona.lens}.`,
    `## Open points\n${[
      ...persona.questions,
      ...conditions.slice(1).map((condition) => `Confirm that ${lowerFirst(condition)}.`),
    ]
      .map((point, index) => `${index + 1}. ${point}`)
      .join('\n')}`,
  ].join('\n\n');
  return { title, format: 'markdown', content: `${content}\n` };
}

export interface ConsultTurnInput {
  sessionId: string;
  /** The consult session's named expert (`synth_id`). */
  synth: string;
  /** The consult session's question. */
  question: string;
  message: string;
  /** The number of this turn in the session, from 1. */
  turn: number;
  modelClass?: ModelClass;
}

/** One consult turn (schema `ConsultTurnOutput`), priced as one Synth-round of the model class. */
export function consultTurn(input: ConsultTurnInput): ConsultTurnOutput {
  const synth = requireSynth(input.synth, '/synth_id');
  const random = createRandom(input.sessionId, 'consult', input.turn);
  const subject = subjectOf(null, input.question).replace(/^the question ".*"$/, 'this');
  const document = asksForDocument(input.message)
    ? composeDocument(synth, input.question, input.message, random)
    : null;
  const reply =
    document === null
      ? [
          openerFor(input.message, synth, random),
          claimIn(synth, subject, figuresOf(`${input.question} ${input.message}`), random),
          `Before you commit, make sure ${lowerFirst(random.pick(personaOf(synth).conditions))}.`,
        ].join(' ')
      : `Here is the ${document.title.split(':')[0]?.toLowerCase() ?? 'memo'} you asked for. ` +
        `The open points at the end are the ones to settle first.`;
  return {
    session_id: input.sessionId,
    turn: input.turn,
    reply,
    document,
    credits_charged: creditsPerSynthRound(input.modelClass ?? 'standard'),
  };
}
