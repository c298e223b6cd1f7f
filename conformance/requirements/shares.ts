/**
 * Share links (seed "What the service does" 4: "create, list and revoke share links (public or
 * password-protected)"; "Endpoints": `/sessions/{id}/shares`; event list variants 3 and 4: `share.created`,
 * `share.viewed`). Opening a link uses the web app's share page, whose address the profile gives.
 * @module
 */
import type { RequirementDefinition } from './types.js';

export const shareRequirements: readonly RequirementDefinition[] = [
  {
    id: 'SHARE-001',
    level: 'MUST',
    category: 'shares',
    seed: 'What the service does 4',
    provenance: 'stated',
    statement:
      "A public and a password-protected share link are created (201) with their access, and both appear in the session's share links.",
  },
  {
    id: 'SHARE-002',
    level: 'SHOULD',
    category: 'shares',
    seed: 'What the service does 4',
    provenance: 'designed',
    statement: 'The password of a protected share link is never returned, neither at creation nor in the list.',
  },
  {
    id: 'SHARE-003',
    level: 'MUST',
    category: 'shares',
    seed: 'Endpoints › Paths with purpose given',
    provenance: 'stated',
    statement: 'Revoking a share link answers it with revoked_at set, and the list shows it revoked.',
  },
  {
    id: 'SHARE-004',
    level: 'MUST',
    category: 'shares',
    seed: 'What the service does 4',
    provenance: 'stated',
    statement: 'A public share link opens the session without a password.',
  },
  {
    id: 'SHARE-005',
    level: 'MUST',
    category: 'shares',
    seed: 'What the service does 4',
    provenance: 'stated',
    statement:
      'A password-protected share link shows nothing of the session without the password or with a wrong one, and shows it with the right one.',
  },
  {
    id: 'SHARE-006',
    level: 'MUST',
    category: 'shares',
    seed: 'Endpoints › Paths with purpose given',
    provenance: 'stated',
    statement: 'A revoked share link no longer opens the session.',
  },
  {
    id: 'SHARE-007',
    level: 'SHOULD',
    category: 'shares',
    seed: 'Events › Event types and data',
    provenance: 'variant',
    statement:
      'Creating a share link emits share.created naming the link and its session (event list variants 3 and 4).',
  },
  {
    id: 'SHARE-008',
    level: 'SHOULD',
    category: 'shares',
    seed: 'Events › Event types and data',
    provenance: 'variant',
    statement:
      'Views of a share link emit share.viewed naming the link, at most one per view, each view counted in view_count (event list variants 3 and 4).',
  },
  {
    id: 'SHARE-009',
    level: 'MUST',
    category: 'shares',
    seed: 'Errors › Error catalog',
    provenance: 'designed',
    statement: 'Revocation is final: revoking a revoked share link again is 409 conflict.',
  },
  {
    id: 'SHARE-010',
    level: 'MUST',
    category: 'shares',
    seed: 'What the service does 4',
    provenance: 'designed',
    statement:
      'Password guessing on a protected share link is limited: after many wrong passwords in a short time, even the right one is refused for a while.',
    references: ['openapi/components/schemas/Share.yaml'],
  },
];
