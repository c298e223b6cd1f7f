/**
 * Faults in exports (seed "Endpoints": `/export` and its variant `/exports`): Markdown wrapped in HTML,
 * JSON cut short, text marked up, a PDF without its trailer, the variant path missing, a path refusing
 * the other's format.
 * @module
 */
import { ProblemError } from '../../server/core/problems.js';
import { editJson, is } from './exchange-edits.js';
import type { Fault } from './types.js';

const exportPath = /^\/v1\/sessions\/[^/]+\/exports?$/;

/** Changes the file of an export of `format`. */
function editFile(format: string, edit: (file: Record<string, unknown>) => void): Fault['response'] {
  return (request, response) =>
    is(request, 'POST', exportPath) && response.status === 201
      ? editJson(response, (body) => (body['format'] === format ? edit(body) : undefined))
      : undefined;
}

export const exportFaults: Fault[] = [
  {
    name: 'export-markdown-as-html',
    breaks: ['EXP-001'],
    response: editFile(
      'markdown',
      (file) => (file['content'] = `<html><body><pre>${String(file['content'])}</pre></body></html>`),
    ),
  },
  {
    name: 'export-json-truncated',
    breaks: ['EXP-002'],
    response: editFile(
      'json',
      (file) => (file['content'] = String(file['content']).slice(0, Math.floor(String(file['content']).length / 2))),
    ),
  },
  {
    name: 'export-text-marked-up',
    breaks: ['EXP-003'],
    response: editFile('text', (file) => (file['content'] = `<p>${String(file['content'])}</p>`)),
  },
  {
    name: 'export-pdf-without-trailer',
    breaks: ['EXP-004'],
    // The file ends before its trailer, as a writer that stopped early leaves it; size_bytes stays true.
    response: editFile('pdf', (file) => {
      const bytes = Buffer.from(String(file['content']), 'base64');
      const cut = bytes.subarray(0, bytes.lastIndexOf('trailer'));
      Object.assign(file, { content: cut.toString('base64'), size_bytes: cut.length });
    }),
  },
  {
    name: 'exports-path-missing',
    breaks: ['EXP-005'],
    answer: (request) =>
      is(request, 'POST', /^\/v1\/sessions\/[^/]+\/exports$/) ? new ProblemError(404, 'No such path.') : undefined,
  },
  {
    name: 'export-pdf-only-on-exports',
    breaks: ['EXP-006'],
    // `/export` keeps to the formats it is published with.
    answer(request) {
      const pdf =
        is(request, 'POST', /^\/v1\/sessions\/[^/]+\/export$/) &&
        /"format"\s*:\s*"pdf"/.test(request.body.toString('utf8'));
      return pdf ? new ProblemError(400, 'This path exports markdown, json or text.') : undefined;
    },
  },
];
