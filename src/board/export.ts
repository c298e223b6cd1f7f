/**
 * Exports of a session (seed "Endpoints": `/export` in Markdown, JSON or text, its variant `/exports` in
 * Markdown, PDF or JSON; schema `Export`): the title, lineup, every round, synthesis and memo as far as
 * they exist, so a running session exports a snapshot. The server adds `id`, `session_id`, `format` and
 * `created_at`; the file itself is a function of the transcript.
 * @module
 */
import { BoardStateError } from './errors.js';
import { decisionMemoSections, roundByRound, sessionLines } from './outcomes.js';
import { renderPdf, type PdfLine } from './pdf.js';
import { dateOf, modeLabel, nameAndRole, roundsOf, titleOf, type SessionTranscript } from './transcript.js';
import type { Export, ExportFormat } from './types.js';

export type ExportFile = Pick<Export, 'content' | 'content_encoding' | 'content_type' | 'filename' | 'size_bytes'>;

const contentTypes: Readonly<Record<ExportFormat, Export['content_type']>> = {
  markdown: 'text/markdown; charset=utf-8',
  json: 'application/json',
  text: 'text/plain; charset=utf-8',
  pdf: 'application/pdf',
};

const extensions: Readonly<Record<ExportFormat, string>> = { markdown: 'md', json: 'json', text: 'txt', pdf: 'pdf' };

/** A file name from the session's title: ASCII letters, digits and dashes (schema `Export.filename`). */
export function exportFilename(transcript: SessionTranscript, format: ExportFormat): string {
  const base = titleOf(transcript)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 80)
    .replace(/^-+|-+$/g, '');
  const safeId = transcript.session.id.replace(/[^A-Za-z0-9._-]/g, '-');
  return `${base === '' ? safeId : base}.${extensions[format]}`;
}

function markdownExport(transcript: SessionTranscript): string {
  const heading = transcript.memo === null ? `# ${titleOf(transcript)}` : `# Decision memo: ${titleOf(transcript)}`;
  const sections = [heading, sessionLines(transcript).join('\n')];
  if (transcript.memo === null) {
    sections.push(`**Status:** ${transcript.session.status} (no memo yet)`);
    if (transcript.synthesis !== null) {
      sections.push(`## Synthesis\n${transcript.synthesis}`);
    }
  } else {
    sections.push(...decisionMemoSections(transcript, transcript.memo));
  }
  sections.push(`## Round by round\n${roundByRound(transcript)}`);
  return `${sections.join('\n\n')}\n`;
}

/** The plain-text export, line by line; `bold` marks headings (the PDF sets them in Helvetica-Bold). */
function textLines(transcript: SessionTranscript): PdfLine[] {
  const { session, memo } = transcript;
  const lines: PdfLine[] = [
    { text: titleOf(transcript).toUpperCase(), bold: true },
    {
      text: `Session ${session.id} - ${modeLabel(session.mode)} - ${session.rounds} rounds - ${dateOf(session.created_at)}`,
    },
    { text: `Board: ${session.synths.map(nameAndRole).join(', ')}` },
  ];
  const section = (heading: string, body: string[]) =>
    lines.push({ text: '' }, { text: heading, bold: true }, ...body.map((text) => ({ text })));
  if (memo === null) {
    section('STATUS', [`${session.status} (no memo yet)`]);
  } else {
    section('VERDICT', [`${memo.verdict} (Confidence ${memo.confidence_0_100}/100)`]);
    if (memo.conditions.length > 0) {
      section(
        'CONDITIONS',
        memo.conditions.map((condition) => `- ${condition}`),
      );
    }
    if (memo.dissent.length > 0) {
      section(
        'DISSENT',
        memo.dissent.map((entry) => `- ${nameAndRole(entry.synth)}: ${entry.position}`),
      );
    }
  }
  if (transcript.synthesis !== null) {
    section('SYNTHESIS', [transcript.synthesis]);
  }
  for (const round of roundsOf(transcript)) {
    section(`ROUND ${round.round}`, [
      ...round.requests.map((request) => `Requester: ${request.content}`),
      ...round.messages.map((message) => `${nameAndRole(message.synth)}: ${message.content}`),
      ...(round.synthesisPreview === null ? [] : [`Preview: ${round.synthesisPreview}`]),
    ]);
  }
  return lines;
}

function jsonExport(transcript: SessionTranscript): string {
  const { session } = transcript;
  const document = {
    session: {
      id: session.id,
      title: session.title ?? null,
      question: session.question ?? null,
      mode: session.mode,
      status: session.status,
      synths: session.synths,
      rounds: session.rounds,
      created_at: session.created_at,
      completed_at: session.completed_at ?? null,
    },
    rounds: roundsOf(transcript).map((round) => ({
      round: round.round,
      ...(round.requests.length > 0 ? { requests: round.requests } : {}),
      messages: round.messages.map(({ synth, content }) => ({ synth, content })),
      synthesis_preview: round.synthesisPreview,
    })),
    synthesis: transcript.synthesis,
    memo: transcript.memo,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The file of an export; a session with no message recorded yet has nothing to export (`BoardStateError`). */
export function exportSession(transcript: SessionTranscript, format: ExportFormat): ExportFile {
  if (transcript.messages.length === 0) {
    throw new BoardStateError('nothing_recorded', 'The session has not recorded its first message yet.');
  }
  const filename = exportFilename(transcript, format);
  if (format === 'pdf') {
    const bytes = renderPdf(textLines(transcript), { title: titleOf(transcript) });
    return {
      content: bytes.toString('base64'),
      content_encoding: 'base64',
      content_type: contentTypes.pdf,
      filename,
      size_bytes: bytes.length,
    };
  }
  const content =
    format === 'markdown'
      ? markdownExport(transcript)
      : format === 'json'
        ? jsonExport(transcript)
        : `${textLines(transcript)
            .map((line) => line.text)
            .join('\n')}\n`;
  return {
    content,
    content_encoding: 'utf-8',
    content_type: contentTypes[format],
    filename,
    size_bytes: Buffer.byteLength(content, 'utf8'),
  };
}
