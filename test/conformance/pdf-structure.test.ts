/**
 * The PDF file-structure check of EXP-004 (ISO 32000-1 §7.5) on its own: the reference server's PDF
 * passes, and each part a broken writer might leave out is named.
 */
import { describe, expect, test } from 'vitest';
import { renderPdf } from '../../src/board/pdf.js';
import { pdfStructureProblems } from '../../conformance/harness/pdf-structure.js';

const pdf = renderPdf([{ text: 'Decision memo', bold: true }, { text: 'Proceed with the EU launch in Q2.' }]);
const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('pdfStructureProblems', () => {
  test('finds nothing wrong with a PDF the board renders', () => {
    expect(pdfStructureProblems(pdf)).toEqual([]);
  });

  test('names a missing header', () => {
    expect(pdfStructureProblems(latin1(pdf.toString('latin1').replace(/^%PDF-/, '%PDX-')))).toContain(
      'no %PDF-1.n header at the start',
    );
  });

  test('names a file cut before its trailer', () => {
    const cut = pdf.subarray(0, pdf.lastIndexOf('trailer'));
    expect(pdfStructureProblems(cut)).toEqual(
      expect.arrayContaining(['no %%EOF marker at the end', 'no startxref offset before %%EOF']),
    );
  });

  test('names a startxref that points elsewhere than the cross-reference table', () => {
    const moved = latin1(
      pdf.toString('latin1').replace(/startxref\s+(\d+)/, (_, offset: string) => `startxref\n${Number(offset) - 7}`),
    );
    expect(pdfStructureProblems(moved).join(' ')).toMatch(/startxref points at byte \d+/);
  });

  test('names a trailer without the /Root catalogue', () => {
    const rootless = latin1(pdf.toString('latin1').replace(/\/Root\s+\d+\s+\d+\s+R/, '/Info 1 0 R'));
    expect(pdfStructureProblems(rootless)).toContain(
      'no trailer naming the /Root catalogue after the cross-reference table',
    );
  });

  test('names text that is not a PDF at all', () => {
    expect(pdfStructureProblems(Buffer.from('# Decision memo\n', 'utf8')).length).toBeGreaterThan(1);
  });
});
