/**
 * A minimal PDF 1.7 writer (ISO 32000-1) for text exports: Letter pages of Helvetica lines, no external
 * dependency. The standard 14 fonts need no embedding (§9.6.2.2); text is written in WinAnsiEncoding
 * (Annex D), so characters outside it become "?". The cross-reference table lists the byte offset of
 * every object (§7.5.4), each entry exactly 20 bytes.
 * @module
 */

export interface PdfLine {
  text: string;
  bold?: boolean;
}

export interface PdfOptions {
  /** The document title, for the Info dictionary. */
  title?: string;
}

const pageWidth = 612;
const pageHeight = 792;
const margin = 54;
const fontSize = 10;
const leading = 13;
/** Characters per line: the text width over an average Helvetica advance (about half the font size). */
export const pdfLineWidth = 92;
const linesPerPage = Math.floor((pageHeight - 2 * margin) / leading);

// The WinAnsiEncoding codes 0x80–0x9F that differ from Latin-1 (ISO 32000-1 Annex D.2).
const winAnsiExtras: Readonly<Record<string, number>> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/** A PDF literal string `( … )` in WinAnsiEncoding, every byte outside printable ASCII escaped (§7.3.4.2). */
export function pdfString(text: string): string {
  let body = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0) ?? 0x3f;
    const byte = winAnsiExtras[char] ?? (code >= 0x20 && code <= 0xff && (code < 0x7f || code >= 0xa0) ? code : 0x3f);
    if (char === '(' || char === ')' || char === '\\') {
      body += `\\${char}`;
    } else if (byte >= 0x20 && byte < 0x7f) {
      body += String.fromCharCode(byte);
    } else {
      body += `\\${byte.toString(8).padStart(3, '0')}`;
    }
  }
  return `(${body})`;
}

/** Wraps text at word boundaries to `width` characters; a word longer than a line is cut. */
export function wrapText(text: string, width = pdfLineWidth): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    for (let rest = word; rest !== '';) {
      const candidate = current === '' ? rest : `${current} ${rest}`;
      if (candidate.length <= width) {
        current = candidate;
        rest = '';
      } else if (current !== '') {
        lines.push(current);
        current = '';
      } else {
        lines.push(rest.slice(0, width));
        rest = rest.slice(width);
      }
    }
  }
  if (current !== '' || lines.length === 0) {
    lines.push(current);
  }
  return lines;
}

function pageContent(lines: readonly PdfLine[]): string {
  const operations = [`BT /F1 ${fontSize} Tf ${leading} TL ${margin} ${pageHeight - margin - fontSize} Td`];
  for (const line of lines) {
    operations.push(
      line.bold
        ? `/F2 ${fontSize} Tf ${pdfString(line.text)} Tj T* /F1 ${fontSize} Tf`
        : `${pdfString(line.text)} Tj T*`,
    );
  }
  operations.push('ET');
  return operations.join('\n');
}

/** The bytes of a PDF showing `lines`, wrapped to the page width and paginated. */
export function renderPdf(lines: readonly PdfLine[], options: PdfOptions = {}): Buffer {
  const wrapped = lines.flatMap((line) => wrapText(line.text).map((text) => ({ text, bold: line.bold ?? false })));
  const pages: PdfLine[][] = [];
  for (let start = 0; start < Math.max(1, wrapped.length); start += linesPerPage) {
    pages.push(wrapped.slice(start, start + linesPerPage));
  }
  // Objects: 1 catalog, 2 page tree, 3 and 4 fonts, 5 info, then a page and its content per page.
  const pageIds = pages.map((_, index) => 6 + 2 * index);
  const bodies: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Title ${pdfString(options.title ?? '')} /Producer (boardkit) >>`,
  ];
  for (const [index, page] of pages.entries()) {
    const contentId = (pageIds[index] ?? 0) + 1;
    bodies.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pageWidth} ${pageHeight}] ` +
        `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${contentId} 0 R >>`,
    );
    const stream = pageContent(page);
    // The content is ASCII (pdfString escapes the rest), so its length in characters is its length in bytes.
    bodies.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  // The second line's bytes above 127 mark the file as binary for transfer tools (§7.5.2).
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  bodies.forEach((body, index) => {
    offsets.push(offset);
    const chunk = Buffer.from(`${index + 1} 0 obj\n${body}\nendobj\n`, 'latin1');
    chunks.push(chunk);
    offset += chunk.length;
  });
  const xref = [
    'xref',
    `0 ${bodies.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${bodies.length + 1} /Root 1 0 R /Info 5 0 R >>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  chunks.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(chunks);
}
