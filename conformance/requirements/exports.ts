/**
 * Exports (seed "Endpoints": `POST /sessions/{id}/export` "as markdown, json or text", its variant
 * `/sessions/{id}/exports` "in markdown, PDF or JSON"). Each format is checked for its media type and
 * for a body that really is that format.
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const exportRequirements: readonly RequirementDefinition[] = [
  {
    id: 'EXP-001',
    level: 'MUST',
    category: 'exports',
    seed: 'Endpoints',
    provenance: 'stated',
    statement:
      "A Markdown export is text/markdown and a Markdown document with a heading, holding the session's title.",
  },
  {
    id: 'EXP-002',
    level: 'MUST',
    category: 'exports',
    seed: 'Endpoints',
    provenance: 'stated',
    statement:
      'A JSON export is application/json and parses as JSON naming the session, its memo valid against the contract.',
  },
  {
    id: 'EXP-003',
    level: 'MUST',
    category: 'exports',
    seed: 'Endpoints',
    provenance: 'stated',
    statement:
      "A text export is text/plain and plain text (no markup, no control characters) holding the session's title.",
  },
  {
    id: 'EXP-004',
    level: 'MUST',
    category: 'exports',
    seed: 'Endpoints › Paths with purpose given',
    provenance: 'variant',
    statement:
      'A PDF export is application/pdf and a PDF file: header, cross-reference table, trailer, startxref and %%EOF, of the size it states.',
    references: ['ISO 32000-1 §7.5'],
  },
  {
    id: 'EXP-005',
    level: 'MUST',
    category: 'exports',
    seed: 'Endpoints › Paths with purpose given',
    provenance: 'variant',
    statement:
      'Each published path answers 201 with an export of each format it is published with: /export Markdown, JSON and text, /exports Markdown, PDF and JSON.',
  },
  {
    id: 'EXP-006',
    level: 'SHOULD',
    category: 'exports',
    seed: 'Endpoints › Paths with purpose given',
    provenance: 'designed',
    statement: "Each path also accepts the other's format: PDF on /export and text on /exports.",
    references: ['openapi/components/schemas/ExportFormat.yaml'],
  },
];
