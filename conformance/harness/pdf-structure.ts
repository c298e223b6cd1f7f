/**
 * What makes a file a PDF a reader can open (ISO 32000-1 §7.5: the file structure): the `%PDF-1.n`
 * header, a cross-reference table (`xref`), a `trailer` naming the `/Root` catalogue, `startxref` with
 * the byte offset of that table, and the `%%EOF` marker at the end. Read from the bytes, without a PDF
 * library; a cross-reference stream (§7.5.8) is accepted in place of the table.
 * @module
 */

/** The ways `bytes` fall short of a PDF file structure; empty when none. */
export function pdfStructureProblems(bytes: Buffer): string[] {
  const text = bytes.toString('latin1');
  const problems: string[] = [];
  if (!/^%PDF-\d\.\d/.test(text)) {
    problems.push('no %PDF-1.n header at the start');
  }
  if (!/%%EOF\s*$/.test(text)) {
    problems.push('no %%EOF marker at the end');
  }
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text);
  if (startxref === null) {
    problems.push('no startxref offset before %%EOF');
    return problems;
  }
  const offset = Number(startxref[1]);
  const atOffset = text.slice(offset, offset + 40);
  const table = atOffset.startsWith('xref');
  const stream = /^\d+\s+\d+\s+obj[\s\S]*\/Type\s*\/XRef/.test(text.slice(offset, offset + 400));
  if (!table && !stream) {
    problems.push(`startxref points at byte ${offset}, where no cross-reference table starts`);
  }
  if (table && !/trailer\s*<<[\s\S]*\/Root\s+\d+\s+\d+\s+R[\s\S]*>>/.test(text.slice(offset))) {
    problems.push('no trailer naming the /Root catalogue after the cross-reference table');
  }
  return problems;
}
