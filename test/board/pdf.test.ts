import { describe, expect, test } from 'vitest';
import { pdfLineWidth, pdfString, renderPdf, wrapText } from '../../src/board/pdf.js';

/** The structure of a PDF file, checked against the cross-reference table it declares (ISO 32000-1 §7.5). */
function inspect(bytes: Buffer) {
  const text = bytes.toString('latin1');
  const startxref = /startxref\n(\d+)\n%%EOF\n$/.exec(text);
  expect(startxref, 'trailer ends with startxref and %%EOF').not.toBeNull();
  const xrefAt = Number(startxref?.[1]);
  expect(text.slice(xrefAt, xrefAt + 5)).toBe('xref\n');
  const header = /^xref\n0 (\d+)\n/.exec(text.slice(xrefAt));
  const count = Number(header?.[1]);
  const entriesAt = xrefAt + (header?.[0].length ?? 0);
  const entries = Array.from({ length: count }, (_, index) =>
    text.slice(entriesAt + 20 * index, entriesAt + 20 * (index + 1)),
  );
  expect(entries[0]).toBe('0000000000 65535 f \n');
  const offsets = entries.slice(1).map((entry) => {
    expect(entry).toMatch(/^\d{10} 00000 n \n$/);
    return Number(entry.slice(0, 10));
  });
  const trailer = text.slice(entriesAt + 20 * count);
  expect(trailer.startsWith('trailer\n')).toBe(true);
  expect(trailer).toContain(`/Size ${count} `);
  return { text, offsets };
}

describe('renderPdf', () => {
  const bytes = renderPdf([{ text: 'Decision memo: EU launch', bold: true }, { text: 'Verdict: proceed in Q2.' }], {
    title: 'EU launch',
  });

  test('writes a PDF 1.7 file that starts with its header and ends with %%EOF', () => {
    const text = bytes.toString('latin1');
    expect(text.startsWith('%PDF-1.7\n')).toBe(true);
    expect(text.endsWith('%%EOF\n')).toBe(true);
  });

  test('every cross-reference offset points at its object, and every stream length is exact', () => {
    const { text, offsets } = inspect(bytes);
    offsets.forEach((offset, index) =>
      expect(text.slice(offset, offset + 12)).toMatch(new RegExp(`^${index + 1} 0 obj\\n`)),
    );
    const streams = [...text.matchAll(/<< \/Length (\d+) >>\nstream\n/g)];
    expect(streams.length).toBeGreaterThan(0);
    for (const stream of streams) {
      const start = (stream.index ?? 0) + stream[0].length;
      expect(text.slice(start + Number(stream[1]), start + Number(stream[1]) + 10)).toBe('\nendstream');
    }
    expect(text).toContain('/Root 1 0 R');
    expect(text).toContain('(Decision memo: EU launch) Tj');
    expect(text).toContain('/Title (EU launch)');
  });

  test('paginates long documents: one page object per page, counted in the page tree', () => {
    const long = renderPdf(Array.from({ length: 200 }, (_, index) => ({ text: `Line ${index + 1}` })));
    const { text, offsets } = inspect(long);
    const pages = (text.match(/\/Type \/Page /g) ?? []).length;
    expect(pages).toBe(4);
    expect(text).toContain(`/Count ${pages}`);
    expect(offsets).toHaveLength(5 + 2 * pages);
    expect(text).toContain('(Line 200) Tj');
  });

  test('escapes delimiters and writes WinAnsi bytes, "?" for what WinAnsi lacks', () => {
    expect(pdfString('Costs (in €) — a\\b é ✓')).toBe('(Costs \\(in \\200\\) \\227 a\\\\b \\351 ?)');
    const { text } = inspect(renderPdf([{ text: 'Café (São Paulo)' }]));
    expect(text).toContain('(Caf\\351 \\(S\\343o Paulo\\)) Tj');
  });

  test('wraps at word boundaries within the line width and cuts overlong words', () => {
    const words = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ');
    const lines = wrapText(words);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((line) => line.length <= pdfLineWidth)).toBe(true);
    expect(lines.join(' ')).toBe(words);
    expect(wrapText('x'.repeat(pdfLineWidth * 2 + 5))).toEqual([
      'x'.repeat(pdfLineWidth),
      'x'.repeat(pdfLineWidth),
      'xxxxx',
    ]);
    expect(wrapText('')).toEqual(['']);
  });
});
