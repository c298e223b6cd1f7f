/**
 * Outcome documents of a decided session (seed "Endpoints": `POST …/outcomes` generates an action plan,
 * report or memo; schema `OutcomeFormat`), in Markdown, written from the transcript alone.
 * @module
 */
import { BoardStateError } from './errors.js';
import { hasPersona, personaOf } from './personas.js';
import { dateOf, memberOf, modeLabel, nameAndRole, roundsOf, titleOf, type SessionTranscript } from './transcript.js';
import { verdictProceeds } from './stances.js';
import { lowerFirst } from './text.js';
import type { Memo, OutcomeFormat } from './types.js';

function decided(transcript: SessionTranscript): Memo {
  if (transcript.memo === null) {
    throw new BoardStateError('not_decided', 'Outcome documents are written from a decided session, one with a memo.');
  }
  return transcript.memo;
}

/** The header lines every document of a session starts with. */
export function sessionLines(transcript: SessionTranscript): string[] {
  const { session } = transcript;
  const rounds = `${session.rounds} ${session.rounds === 1 ? 'round' : 'rounds'}`;
  return [
    `**Session:** ${session.id} · ${modeLabel(session.mode)} · ${rounds} · ${dateOf(session.created_at)}`,
    `**Board:** ${session.synths.map(nameAndRole).join(', ')}`,
  ];
}

/** The decision memo: verdict, confidence, conditions, dissent and synthesis (after the contract's example). */
export function decisionMemoSections(transcript: SessionTranscript, memo: Memo): string[] {
  const sections = [`## Verdict\n${memo.verdict}\n\n**Confidence:** ${memo.confidence_0_100}/100`];
  if (memo.conditions.length > 0) {
    sections.push(
      `## Conditions\n${memo.conditions.map((condition, index) => `${index + 1}. ${condition}.`).join('\n')}`,
    );
  }
  if (memo.dissent.length > 0) {
    const lines = memo.dissent.map((entry) => `- **${nameAndRole(entry.synth)}:** ${entry.position}`);
    sections.push(`## Dissent\n${lines.join('\n')}`);
  }
  if (transcript.synthesis !== null) {
    sections.push(`## Synthesis\n${transcript.synthesis}`);
  }
  return sections;
}

function decisionMemo(transcript: SessionTranscript): string {
  const memo = decided(transcript);
  return [
    `# Decision memo: ${titleOf(transcript)}`,
    sessionLines(transcript).join('\n'),
    ...decisionMemoSections(transcript, memo),
  ].join('\n\n');
}

/** Who owns a condition: the Synth of the board whose condition it is, else the decision's owner. */
function ownerOf(condition: string, lineup: readonly string[]): string {
  const owner = lineup
    .map(memberOf)
    .find((synth) => hasPersona(synth.slug) && personaOf(synth).conditions.includes(condition));
  return owner === undefined ? 'Decision owner' : owner.role;
}

const deadlines = ['Before commitment', 'Within 30 days', 'Within 60 days', 'Within 90 days'];

function actionPlan(transcript: SessionTranscript): string {
  const memo = decided(transcript);
  const proceeds = verdictProceeds(memo);
  const { synths } = transcript.session;
  const actions = memo.conditions.map((condition, index) => ({
    action: `${proceeds ? 'Confirm' : 'Show'} that ${lowerFirst(condition)}`,
    owner: ownerOf(condition, synths),
    when: deadlines[Math.min(index, deadlines.length - 1)] ?? 'Within 90 days',
  }));
  actions.push({
    action: proceeds
      ? 'Review the decision against its conditions and the dissent'
      : 'Reconvene the board on the decision',
    owner: 'Decision owner',
    when: proceeds ? 'After 90 days' : 'Once the prerequisites hold',
  });
  const table = [
    '| # | Action | Owner | When |',
    '|---|---|---|---|',
    ...actions.map((row, index) => `| ${index + 1} | ${row.action.replace(/\|/g, '/')} | ${row.owner} | ${row.when} |`),
  ];
  const sections = [
    `# Action plan: ${titleOf(transcript)}`,
    sessionLines(transcript).join('\n'),
    `## Decision\n${memo.verdict} (confidence ${memo.confidence_0_100}/100)`,
    `## Actions\n${table.join('\n')}`,
  ];
  if (memo.dissent.length > 0) {
    const risks = memo.dissent.map((entry) => `- ${entry.position} (raised by ${memberOf(entry.synth).name})`);
    sections.push(`## Risks to watch\n${risks.join('\n')}`);
  }
  return sections.join('\n\n');
}

function report(transcript: SessionTranscript): string {
  const memo = decided(transcript);
  const { session } = transcript;
  const sections = [`# Board report: ${titleOf(transcript)}`, sessionLines(transcript).join('\n')];
  if (transcript.synthesis !== null) {
    sections.push(`## Summary\n${transcript.synthesis}`);
  }
  const brief = [
    session.question ? `**Question:** ${session.question}` : '',
    session.context ? `**Context:** ${session.context}` : '',
  ];
  if (brief.some((line) => line !== '')) {
    sections.push(`## Brief\n${brief.filter((line) => line !== '').join('\n\n')}`);
  }
  const board = session.synths.map((slug) => {
    const synth = memberOf(slug);
    const last = transcript.messages.filter((message) => message.synth === slug).at(-1);
    return `| ${synth.name} | ${synth.role} | ${last === undefined ? '(did not speak)' : last.content.replace(/\|/g, '/')} |`;
  });
  sections.push(`## The board\n| Synth | Role | Last word |\n|---|---|---|\n${board.join('\n')}`);
  sections.push(`## Round by round\n${roundByRound(transcript)}`);
  sections.push(...decisionMemoSections({ ...transcript, synthesis: null }, memo));
  return sections.join('\n\n');
}

/** Every round: the requester's messages, each Synth's contribution and the round's synthesis preview. */
export function roundByRound(transcript: SessionTranscript): string {
  return roundsOf(transcript)
    .map((round) => {
      const lines = [
        ...round.requests.map((request) => `> **Requester:** ${request.content}`),
        ...round.messages.map((message) => `- **${nameAndRole(message.synth)}:** ${message.content}`),
      ];
      if (round.synthesisPreview !== null) {
        lines.push('', `*${round.synthesisPreview}*`);
      }
      return `### Round ${round.round}\n${lines.join('\n')}`;
    })
    .join('\n\n');
}

/** The Markdown of an outcome document; the session must be decided (`BoardStateError` otherwise). */
export function composeOutcome(format: OutcomeFormat, transcript: SessionTranscript): string {
  switch (format) {
    case 'decision_memo':
      return `${decisionMemo(transcript)}\n`;
    case 'action_plan':
      return `${actionPlan(transcript)}\n`;
    case 'report':
      return `${report(transcript)}\n`;
  }
}
