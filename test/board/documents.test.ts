import { describe, expect, test } from 'vitest';
import { createRun } from '../../src/board/debate.js';
import { BoardStateError } from '../../src/board/errors.js';
import { exportFilename, exportSession } from '../../src/board/export.js';
import { composeOutcome } from '../../src/board/outcomes.js';
import { memberOf } from '../../src/board/transcript.js';
import type { ExportFormat, Memo, OutcomeFormat } from '../../src/board/types.js';
import { valueAt } from '../../src/contract/pointer.js';
import { contract, drain, euLaunch, expectValid, finishedTranscript, transcriptOf, validator } from './support.js';

const exampleMemo = valueAt(contract, '#/components/examples/SessionComplete/value/memo') as Memo;
const transcript = finishedTranscript();
const withDissent = { ...transcript, memo: exampleMemo };
const formats: OutcomeFormat[] = ['decision_memo', 'action_plan', 'report'];
const exportFormats: ExportFormat[] = ['markdown', 'json', 'text', 'pdf'];

describe('outcome documents', () => {
  test.each(formats)('%s is a ready Outcome of the contract, written from the transcript', (format) => {
    const content = composeOutcome(format, withDissent);
    const outcome = {
      id: '7c1e4b2a-9d3f-4a86-b5e0-2f8c6d1a9b47',
      session_id: transcript.session.id,
      format,
      status: 'ready',
      content,
      created_at: '2026-11-20T09:21:10.245Z',
      ready_at: '2026-11-20T09:21:38.902Z',
    };
    expectValid('Outcome', outcome);
    expectValid('Outcomes', {
      session_id: transcript.session.id,
      status: 'complete',
      synthesis: transcript.synthesis,
      memo: exampleMemo,
      outcomes: [outcome],
    });
    expect(content).toContain(exampleMemo.verdict);
    expect(content).toMatch(/^# (Decision memo|Action plan|Board report): EU launch of the Pro plan\n/);
    expect(content).toContain('The Arena (stress test) · 3 rounds · 2026-11-20');
    expect(composeOutcome(format, withDissent)).toBe(content);
  });

  test('the decision memo lists conditions, dissent and synthesis', () => {
    const memo = composeOutcome('decision_memo', withDissent);
    expect(memo).toContain('**Confidence:** 72/100');
    expect(memo).toContain('1. Data-residency review signed off by legal before launch.');
    expect(memo).toContain("- **Viktor Hale (Devil's Advocate):** The Q2 date leaves no slack");
    expect(memo).toContain(`## Synthesis\n${transcript.synthesis}`);
  });

  test('the action plan turns each condition into an owned, dated action', () => {
    const memo = transcript.memo as Memo;
    const plan = composeOutcome('action_plan', transcript);
    const rows = plan.split('\n').filter((line) => /^\| \d+ \|/.test(line));
    expect(rows).toHaveLength(memo.conditions.length + 1);
    const owners = transcript.session.synths.map((slug) => memberOf(slug).role);
    rows.slice(0, -1).forEach((row) => expect(owners.some((role) => row.includes(`| ${role} |`))).toBe(true));
  });

  test('the report carries every contribution of every round', () => {
    const report = composeOutcome('report', transcript);
    transcript.messages.forEach((message) => expect(report).toContain(message.content));
    expect(report).toContain('### Round 3');
  });

  test('an undecided session has no outcome documents', () => {
    expect(() => composeOutcome('report', { ...transcript, memo: null })).toThrow(BoardStateError);
  });
});

describe('exports', () => {
  test.each(exportFormats)('%s validates as the Export answer and sizes its file', (format) => {
    const file = exportSession(transcript, format);
    const exported = {
      id: 'exp_01JD8T6B8D0F2H4K6M8P0R2T4V',
      session_id: transcript.session.id,
      format,
      created_at: '2026-11-20T09:24:51.660Z',
      ...file,
    };
    expectValid('Export', exported);
    expect(validator.responseBody('exportSession', 201)?.(exported)).toBe(true);
    const bytes =
      file.content_encoding === 'base64' ? Buffer.from(file.content, 'base64') : Buffer.from(file.content, 'utf8');
    expect(file.size_bytes).toBe(bytes.length);
    expect(file.content_encoding).toBe(format === 'pdf' ? 'base64' : 'utf-8');
    expect(file.filename).toBe(
      `eu-launch-of-the-pro-plan.${{ markdown: 'md', json: 'json', text: 'txt', pdf: 'pdf' }[format]}`,
    );
    expect(exportSession(transcript, format)).toEqual(file);
  });

  test('markdown, text and JSON hold the memo and every round', () => {
    const memo = transcript.memo as Memo;
    const markdown = exportSession(transcript, 'markdown').content;
    const text = exportSession(transcript, 'text').content;
    for (const message of transcript.messages) {
      expect(markdown).toContain(message.content);
      expect(text).toContain(message.content);
    }
    expect(markdown).toContain(`## Verdict\n${memo.verdict}`);
    expect(text).toContain(`VERDICT\n${memo.verdict}`);
    const json = JSON.parse(exportSession(transcript, 'json').content);
    expect(json.memo).toEqual(memo);
    expect(json.rounds.map((round: { round: number }) => round.round)).toEqual([1, 2, 3]);
    expect(json.rounds.flatMap((round: { messages: unknown[] }) => round.messages)).toHaveLength(
      transcript.messages.length,
    );
  });

  test('the PDF export decodes to a PDF 1.7 file', () => {
    const bytes = Buffer.from(exportSession(transcript, 'pdf').content, 'base64').toString('latin1');
    expect(bytes.startsWith('%PDF-1.7\n')).toBe(true);
    expect(bytes.endsWith('%%EOF\n')).toBe(true);
    expect(bytes).toContain('(EU LAUNCH OF THE PRO PLAN) Tj');
  });

  test('a running session exports a snapshot; one without messages has nothing to export', () => {
    const run = createRun(euLaunch);
    const steps = [...Array(6)].flatMap(() => run.nextStep() ?? []);
    run.sendMessage({ content: 'Assume the price stays at 49 EUR per seat.' });
    const snapshot = {
      ...transcriptOf(euLaunch, steps, 'running'),
      requests: [{ round: 2, content: 'Assume the price stays at 49 EUR per seat.' }],
    };
    const markdown = exportSession(snapshot, 'markdown').content;
    expect(markdown).toContain('**Status:** running (no memo yet)');
    expect(markdown).toContain('> **Requester:** Assume the price stays at 49 EUR per seat.');
    exportFormats.forEach((format) => expect(() => exportSession(snapshot, format)).not.toThrow());
    const empty = transcriptOf(euLaunch, [], 'created');
    expect(() => exportSession(empty, 'json')).toThrow(expect.objectContaining({ code: 'nothing_recorded' }));
  });

  test('file names come from the title, ASCII only, or from the session id', () => {
    const named = (title: string | null, question: string | null = null) =>
      exportFilename({ ...transcript, session: { ...transcript.session, title, question } }, 'text');
    expect(named('Überprüfung: Café São Paulo!')).toBe('uberprufung-cafe-sao-paulo.txt');
    expect(named(null, 'Should we hire?')).toBe('should-we-hire.txt');
    expect(named('???')).toBe('ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E.txt');
    expect(named(null)).toBe('session-ses-01jd8m4zpq6t3w9xk2rb7cnv5e.txt');
  });

  test('a session without a memo still validates for every format', () => {
    const snapshot = transcriptOf(euLaunch, drain(createRun(euLaunch)).slice(0, 3), 'running');
    for (const format of exportFormats) {
      expectValid('Export', {
        id: 'exp_01JD8T6B8D0F2H4K6M8P0R2T4V',
        session_id: snapshot.session.id,
        format,
        created_at: '2026-11-20T09:24:51.660Z',
        ...exportSession(snapshot, format),
      });
    }
  });
});
