/**
 * Cursor pagination (seed "Endpoints": limit and cursor in, next_cursor out; "Other records": null when
 * there are no more items).
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const paginationRequirements: readonly RequirementDefinition[] = [
  {
    id: 'PAGE-001',
    level: 'MUST',
    category: 'pagination',
    seed: 'Endpoints',
    provenance: 'stated',
    statement:
      'Walking a list page by page finds every item that existed before the walk exactly once, while another client inserts items.',
  },
  {
    id: 'PAGE-002',
    level: 'MUST',
    category: 'pagination',
    seed: 'Resources and their fields › Other records',
    provenance: 'stated',
    statement: 'next_cursor is null on the last page and a string on every other page.',
  },
  {
    id: 'PAGE-003',
    level: 'MUST',
    category: 'pagination',
    seed: 'Endpoints',
    provenance: 'stated',
    statement: 'A page never holds more items than limit (a shorter page while more items follow is allowed).',
  },
  {
    id: 'PAGE-004',
    level: 'SHOULD',
    category: 'pagination',
    seed: 'Limits 3',
    provenance: 'designed',
    statement: 'Without limit a page holds at most 20 items.',
    references: ['docs/decisions.md › Requests and responses'],
  },
  {
    id: 'PAGE-005',
    level: 'SHOULD',
    category: 'pagination',
    seed: 'Endpoints',
    provenance: 'designed',
    statement: 'A cursor the list did not issue (altered, or made up) is answered 404 not-found, never with a page.',
    references: ['docs/decisions.md › Requests and responses'],
  },
  {
    id: 'PAGE-006',
    level: 'SHOULD',
    category: 'pagination',
    seed: 'Limits 3',
    provenance: 'designed',
    statement: 'A limit outside 1 to 100 is answered 400 invalid-request.',
  },
  {
    id: 'PAGE-007',
    level: 'MUST',
    category: 'pagination',
    seed: 'Endpoints',
    provenance: 'stated',
    statement:
      'Every list endpoint pages with limit and cursor and answers items and next_cursor, and a walk reaches its end.',
  },
  {
    id: 'PAGE-008',
    level: 'MUST',
    category: 'pagination',
    seed: 'Endpoints',
    provenance: 'designed',
    statement:
      'Decisions, share links and webhook subscriptions are listed newest first, as the contract gives their order.',
    references: [
      'openapi/components/schemas/DecisionPage.yaml',
      'openapi/components/schemas/SharePage.yaml',
      'openapi/components/schemas/WebhookSubscriptionPage.yaml',
    ],
  },
];
